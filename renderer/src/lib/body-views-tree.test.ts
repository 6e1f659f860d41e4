import { describe, expect, test } from 'vitest';
import {
  containerSummary,
  findInTree,
  rowOfMatch,
  visibleRows,
  type Json,
  type JsonContainer,
} from './body-views-tree.ts';

const parse = (s: string) => JSON.parse(s) as Json;
const shown = (root: Json, open: JsonContainer[]) =>
  visibleRows(root, new Set(open)).map((r) => `${'  '.repeat(r.level - 1)}${r.key ?? '$'} ${r.position}/${r.siblings}`);

describe('the JSON tree as rows', () => {
  test('only the children of expanded containers are listed, in order, with their level and place', () => {
    const root = parse('{"a":{"b":[1,2]},"c":3}') as Record<string, Json>;
    expect(shown(root, [])).toEqual(['$ 1/1']);
    expect(shown(root, [root])).toEqual(['$ 1/1', '  a 1/2', '  c 2/2']);
    const a = root.a as Record<string, JsonContainer>;
    expect(shown(root, [root, a, a.b!])).toEqual([
      '$ 1/1',
      '  a 1/2',
      '    b 1/1',
      '      0 1/2',
      '      1 2/2',
      '  c 2/2',
    ]);
    // A folded container hides its children even when they are open themselves.
    expect(shown(root, [root, a.b!])).toEqual(['$ 1/1', '  a 1/2', '  c 2/2']);
    expect([containerSummary([1]), containerSummary({}), containerSummary({ a: 1, b: 2 })]).toEqual([
      '[…] 1 item',
      '{…} 0 keys',
      '{…} 2 keys',
    ]);
  });

  test('a member named __proto__ is a row like any other, and pollutes nothing', () => {
    const root = parse('{"__proto__":{"polluted":1}}') as JsonContainer;
    expect(shown(root, [root])).toEqual(['$ 1/1', '  __proto__ 1/1']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  test('find looks in names and leaf values in row order, and names the containers to unfold', () => {
    const root = parse('{"paid":false,"data":{"items":[{"status":"PAID"},"unpaid"]},"n":7}') as Record<string, Json>;
    const data = root.data as Record<string, Json[]>;
    const { matches, capped } = findInTree(root, 'paid');
    expect(capped).toBe(false);
    expect(matches.map((m) => [m.key, m.part, m.start, m.end])).toEqual([
      ['paid', 'key', 0, 4],
      ['status', 'value', 0, 4],
      [1, 'value', 2, 6],
    ]);
    expect(matches[1]!.path).toEqual([root, data, data.items, data.items![0]]);
    expect(matches[1]!.parent).toBe(data.items![0]);
    // Numbers are found as they are written; array indexes are not content.
    expect(findInTree(root, '7').matches.map((m) => m.key)).toEqual(['n']);
    expect(findInTree(root, '0').matches).toEqual([]);
    // A string is searched as the row shows it, escapes included.
    expect(findInTree(parse('["a\\nb"]'), 'a\\n').matches.length).toBe(1);
    expect(findInTree(parse('[1,1,1]'), '1', 2)).toMatchObject({ capped: true, matches: { length: 2 } });

    const rows = visibleRows(root, new Set(matches[1]!.path));
    expect(rows[rowOfMatch(rows, matches[1]!)]!.value).toBe('PAID');
    expect(rowOfMatch(visibleRows(root, new Set([root as JsonContainer])), matches[1]!)).toBe(-1);
  });
});
