import { describe, expect, test } from 'vitest';
import {
  bodyBytes,
  bodyViewsFor,
  formFields,
  hexRow,
  LARGE_BODY_CHARS,
  MAX_TREE_DEPTH,
  prettyText,
} from './body-views.ts';

describe('the body view chooser', () => {
  test('JSON opens as a tree whenever it parses, whatever the content type says', () => {
    expect(bodyViewsFor('application/json; charset=utf-8', '{"a":1}', 'utf8')).toEqual({
      available: ['json', 'text', 'raw', 'hex'],
      initial: 'json',
    });
    expect(bodyViewsFor('text/plain', ' [1,2]', 'utf8').initial).toBe('json');
    expect(bodyViewsFor('application/json', '{"a":', 'utf8')).toEqual({
      available: ['text', 'raw', 'hex'],
      initial: 'text',
    });
    expect(bodyViewsFor('application/json', '42', 'utf8').initial).toBe('text');
  });

  test('form posts open as a table, XML as Pretty, binary as hex', () => {
    expect(bodyViewsFor('application/x-www-form-urlencoded', 'a=1&b=2', 'utf8')).toEqual({
      available: ['form', 'text', 'raw', 'hex'],
      initial: 'form',
    });
    expect(bodyViewsFor('application/atom+xml', '<feed/>', 'utf8')).toEqual({
      available: ['text', 'raw', 'hex'],
      initial: 'text',
    });
    expect(bodyViewsFor('application/octet-stream', 'AAEC', 'base64')).toEqual({
      available: ['hex', 'raw'],
      initial: 'hex',
    });
  });

  test('form fields keep order and repeats; hex shows offset, bytes and printable text', () => {
    expect(formFields('a=1&b=two+words&a=3')).toEqual([
      ['a', '1'],
      ['b', 'two words'],
      ['a', '3'],
    ]);
    const bytes = bodyBytes('AAFBYn8=', 'base64');
    expect([...bytes]).toEqual([0, 1, 65, 98, 127]);
    expect(hexRow(bytes, 0)).toEqual({
      offset: '00000000',
      hex: `00 01 41 62 7f${' '.repeat(47 - 14)}`,
      ascii: '..Ab.',
    });
    const text = bodyBytes('0123456789abcdefXYZ', 'utf8');
    expect(hexRow(text, 1)).toEqual({ offset: '00000010', hex: `58 59 5a${' '.repeat(47 - 8)}`, ascii: 'XYZ' });
    // Every row's hex column is the same width, so the ASCII column starts at the same place on each.
    expect(hexRow(text, 0).hex.length).toBe(hexRow(text, 1).hex.length);
  });

  test('JSON nested deeper than the tree limit gets neither tree nor pretty view; at the limit it still does', () => {
    const nested = (n: number) => `${'['.repeat(n)}1${']'.repeat(n)}`;
    expect(MAX_TREE_DEPTH).toBe(100);
    expect(bodyViewsFor('application/json', nested(100), 'utf8')).toEqual({
      available: ['json', 'text', 'raw', 'hex'],
      initial: 'json',
    });
    expect(bodyViewsFor('application/json', nested(101), 'utf8')).toEqual({
      available: ['raw', 'hex'],
      initial: 'raw',
      tooDeep: true,
    });
    expect(bodyViewsFor('application/json', nested(3000), 'utf8').tooDeep).toBe(true);
    // Brackets inside strings are text, and text that is not JSON keeps its views.
    expect(bodyViewsFor('application/json', `{"a":"${'['.repeat(500)}"}`, 'utf8').initial).toBe('json');
    expect(bodyViewsFor('text/plain', '['.repeat(500), 'utf8')).toEqual({
      available: ['text', 'raw', 'hex'],
      initial: 'text',
    });
  });

  test('a body longer than LARGE_BODY_CHARS opens as Raw, its other views still offered', () => {
    const big = JSON.stringify({ items: 'x'.repeat(LARGE_BODY_CHARS) });
    expect(bodyViewsFor('application/json', big, 'utf8')).toEqual({
      available: ['json', 'text', 'raw', 'hex'],
      initial: 'raw',
      large: true,
    });
    const justUnder = JSON.stringify({ items: 'x'.repeat(LARGE_BODY_CHARS - 20) });
    expect(justUnder.length).toBeLessThanOrEqual(LARGE_BODY_CHARS);
    expect(bodyViewsFor('application/json', justUnder, 'utf8').initial).toBe('json');
    expect(bodyViewsFor(null, 'A'.repeat(LARGE_BODY_CHARS + 4), 'base64')).toEqual({
      available: ['hex', 'raw'],
      initial: 'hex',
      large: true,
    });
  });

  test('Pretty indents JSON and XML (by content type or declaration), and leaves other text as it is', () => {
    expect(prettyText('application/json', '{"a":[1]}')).toEqual({ text: '{\n  "a": [\n    1\n  ]\n}' });
    expect(prettyText('application/xml', '<a><b>1</b></a>')).toEqual({ text: '<a>\n  <b>1</b>\n</a>' });
    expect(prettyText('text/plain', '<?xml version="1.0"?><a/>')).toEqual({ text: '<?xml version="1.0"?>\n<a/>' });
    expect(prettyText('text/plain', '<a><b>1</b></a>')).toEqual({ text: '<a><b>1</b></a>' });
    expect(prettyText('application/xml', '<a><b></a>')).toEqual({
      text: '<a><b></a>',
      note: 'Not indented: </a> closes <b>. Here it is as received.',
    });
  });
});
