import { describe, expect, test } from 'vitest';
import { bodyBytes, bodyViewsFor, formFields, hexLines, MAX_TREE_DEPTH, treeData } from './body-views.ts';

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

  test('form posts open as a table, XML as XML, binary as hex', () => {
    expect(bodyViewsFor('application/x-www-form-urlencoded', 'a=1&b=2', 'utf8')).toEqual({
      available: ['form', 'text', 'raw', 'hex'],
      initial: 'form',
    });
    expect(bodyViewsFor('application/atom+xml', '<feed/>', 'utf8').initial).toBe('xml');
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
    expect(hexLines(bytes)).toEqual([`00000000  00 01 41 62 7f${' '.repeat(47 - 14)}  ..Ab.`]);
    expect(hexLines(new Uint8Array(17)).length).toBe(2);
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

  test('the tree data shows bidi controls in keys and strings as markers; __proto__ stays a member', () => {
    expect(treeData('{"file":"invoice_\u202Efdp.exe","k\u2066":[1,"a\u200fb",null],"__proto__":{"x":true}}')).toEqual({
      file: 'invoice_⟨U+202E⟩fdp.exe',
      'k⟨U+2066⟩': [1, 'a⟨U+200F⟩b', null],
      ['__proto__']: { x: true },
    });
    const data = treeData('{"__proto__":{"polluted":1}}') as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
