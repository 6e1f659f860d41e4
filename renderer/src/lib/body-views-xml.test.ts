import { describe, expect, test } from 'vitest';
import { prettyXml } from './body-views-xml.ts';

describe('XML indented for Pretty', () => {
  test('each element on its own line by depth; text-only elements, attributes and the prolog kept as written', () => {
    const body =
      '<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE note [<!ENTITY x "y>z">]><feed xmlns="http://www.w3.org/2005/Atom">' +
      '<entry id="1" title="a &gt; b"><title>Paid &amp; done</title><empty/><!-- a comment --><note><![CDATA[<not a tag>]]></note>' +
      "</entry>\n   \n<entry id='2'></entry></feed>";
    expect(prettyXml(body, 100)).toEqual({
      ok: true,
      text: [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE note [<!ENTITY x "y>z">]>',
        '<feed xmlns="http://www.w3.org/2005/Atom">',
        '  <entry id="1" title="a &gt; b">',
        '    <title>Paid &amp; done</title>',
        '    <empty/>',
        '    <!-- a comment -->',
        '    <note><![CDATA[<not a tag>]]></note>',
        '  </entry>',
        "  <entry id='2'></entry>",
        '</feed>',
      ].join('\n'),
    });
  });

  test('a quoted ">" in an attribute does not end the tag; mixed content is put on lines', () => {
    expect(prettyXml('<a href="x>y">one <b>two</b> three</a>', 100)).toEqual({
      ok: true,
      text: '<a href="x>y">\n  one\n  <b>two</b>\n  three\n</a>',
    });
  });

  test('markup that is not well-formed, or nested past the limit, is refused with the reason', () => {
    expect(prettyXml('<a><b></a>', 100)).toEqual({ ok: false, reason: '</a> closes <b>' });
    expect(prettyXml('<a><b></b>', 100)).toEqual({ ok: false, reason: '<a> is never closed' });
    expect(prettyXml('</a>', 100)).toEqual({ ok: false, reason: '</a> closes nothing' });
    expect(prettyXml('<a><!-- open', 100)).toEqual({ ok: false, reason: 'a "<!-- open" that never ends' });
    const deep = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(prettyXml(deep(3), 3).ok).toBe(true);
    expect(prettyXml(deep(4), 3)).toEqual({ ok: false, reason: 'it nests more than 3 elements deep' });
    // 3,000 deep in a few KB: refused at once, never indented by thousands of spaces per line.
    expect(prettyXml(deep(3000), 100).ok).toBe(false);
  });
});
