import { findPattern, MAX_MATCHES } from './body-views-find.ts';

/**
 * The JSON tree as rows: only the nodes whose parents are expanded are listed, so
 * a body of any size costs what is open, and the list is drawn virtualised.
 * Containers are told apart by identity (JSON.parse makes each one a distinct
 * object), so the expanded set holds the containers themselves, and a node is
 * found again by its parent and its key. Walks are iterative; bodies reach here
 * only within MAX_TREE_DEPTH (lib/body-views.ts).
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonContainer = Json[] | { [key: string]: Json };

export const isContainer = (v: Json): v is JsonContainer => v !== null && typeof v === 'object';

export interface TreeRow {
  /** The container holding the node; null for the root. */
  parent: JsonContainer | null;
  /** The node's member name or array index; null for the root. */
  key: string | number | null;
  value: Json;
  /** 1 for the root. */
  level: number;
  /** Its place among its siblings (1-based) and their number, for aria-posinset and aria-setsize. */
  position: number;
  siblings: number;
}

/** The keys of a container in order: indexes of an array, member names of an object. */
export function childKeys(c: JsonContainer): (string | number)[] {
  return Array.isArray(c) ? Array.from(c, (_, i) => i) : Object.keys(c);
}

const child = (c: JsonContainer, key: string | number): Json =>
  Array.isArray(c) ? c[key as number]! : (c as Record<string, Json>)[key as string]!;

/** The rows shown: the root, and the children of each expanded container, depth first. */
export function visibleRows(root: Json, expanded: ReadonlySet<JsonContainer>): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: TreeRow[] = [{ parent: null, key: null, value: root, level: 1, position: 1, siblings: 1 }];
  while (stack.length > 0) {
    const row = stack.pop()!;
    rows.push(row);
    const v = row.value;
    if (!isContainer(v) || !expanded.has(v)) continue;
    const keys = childKeys(v);
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({
        parent: v,
        key: keys[i]!,
        value: child(v, keys[i]!),
        level: row.level + 1,
        position: i + 1,
        siblings: keys.length,
      });
    }
  }
  return rows;
}

/** How a container reads when its children are hidden: `{…} 3 keys`, `[…] 12 items`. */
export function containerSummary(c: JsonContainer): string {
  const n = Array.isArray(c) ? c.length : Object.keys(c).length;
  if (Array.isArray(c)) return `[…] ${n} ${n === 1 ? 'item' : 'items'}`;
  return `{…} ${n} ${n === 1 ? 'key' : 'keys'}`;
}

/**
 * The text find looks in and the row shows: a member name, or a leaf value as JSON
 * writes it (a string without its quotes, escapes kept, so a row is one line).
 * Array indexes are not searched: they are positions, not content.
 */
export function keyText(key: string | number | null): string {
  return typeof key === 'string' ? JSON.stringify(key).slice(1, -1) : '';
}
export function leafText(value: Json): string {
  if (typeof value === 'string') return JSON.stringify(value).slice(1, -1);
  // Containers are rows of their own (containerSummary): a leaf is a number, a boolean or null.
  return isContainer(value) ? '' : String(value);
}

export interface TreeMatch {
  parent: JsonContainer | null;
  key: string | number | null;
  /** In the member name, or in the leaf value. */
  part: 'key' | 'value';
  start: number;
  end: number;
  /** The containers from the root down to `parent`: what must be expanded for the match to show. */
  path: JsonContainer[];
}

export interface TreeMatches {
  matches: TreeMatch[];
  capped: boolean;
}

/** Every match of `query` in the tree's names and leaf values, in the order the rows list them. */
export function findInTree(root: Json, query: string, limit = MAX_MATCHES): TreeMatches {
  const matches: TreeMatch[] = [];
  if (query === '') return { matches, capped: false };
  const pattern = findPattern(query);
  /** Adds the matches in one text; false once the limit is passed. */
  const scan = (text: string, at: Omit<TreeMatch, 'start' | 'end'>): boolean => {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      if (matches.length === limit) return false;
      matches.push({ ...at, start: m.index, end: m.index + m[0].length });
    }
    return true;
  };
  type Frame = { parent: JsonContainer | null; key: string | number | null; value: Json; path: JsonContainer[] };
  const stack: Frame[] = [{ parent: null, key: null, value: root, path: [] }];
  while (stack.length > 0) {
    const { parent, key, value, path } = stack.pop()!;
    if (typeof key === 'string' && !scan(keyText(key), { parent, key, part: 'key', path })) {
      return { matches, capped: true };
    }
    if (isContainer(value)) {
      const inner = [...path, value];
      const keys = childKeys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ parent: value, key: keys[i]!, value: child(value, keys[i]!), path: inner });
      }
    } else if (!scan(leafText(value), { parent, key, part: 'value', path })) {
      return { matches, capped: true };
    }
  }
  return { matches, capped: false };
}

/** The row showing a match's node, among rows listed by visibleRows; -1 when it is hidden. */
export function rowOfMatch(rows: readonly TreeRow[], match: Pick<TreeMatch, 'parent' | 'key'>): number {
  return rows.findIndex((r) => r.parent === match.parent && r.key === match.key);
}
