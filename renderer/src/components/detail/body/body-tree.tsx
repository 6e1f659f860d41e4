import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { findInText, markedPieces, NO_MATCHES } from '../../../lib/body-views-find.ts';
import {
  containerSummary,
  isContainer,
  keyText,
  leafText,
  rowOfMatch,
  visibleRows,
  type Json,
  type JsonContainer,
  type TreeMatch,
  type TreeRow,
} from '../../../lib/body-views-tree.ts';
import { MarkedText } from './marked-text.tsx';

/** A tree row's height before it is measured (a long value wraps onto more lines). */
const ROW_ESTIMATE_PX = 20;
/**
 * The most characters of one name or value a row draws (the rest is elided, and in
 * Raw): a 2 MB string in one value would otherwise be one huge text node. A row
 * holding the current match draws the part around it.
 */
export const MAX_ROW_CHARS = 2000;

interface Props {
  root: Json;
  query: string;
  matches: TreeMatch[];
  current: number;
}

/** The part of `text` a row draws: [from, to), around `focus` (an offset) when there is one. */
function shownPart(text: string, focus: number | null): [number, number] {
  if (text.length <= MAX_ROW_CHARS) return [0, text.length];
  const from = focus === null ? 0 : Math.max(0, Math.min(focus - MAX_ROW_CHARS / 2, text.length - MAX_ROW_CHARS));
  return [from, from + MAX_ROW_CHARS];
}

/** A name or leaf value with its matches marked, elided beyond MAX_ROW_CHARS. */
function RowText({ text, query, current }: { text: string; query: string; current: TreeMatch | null }) {
  const matches = query === '' ? NO_MATCHES : findInText(text, query);
  const [from, to] = shownPart(text, current?.start ?? null);
  const at = current === null ? -1 : matches.starts.indexOf(current.start);
  return (
    <>
      {from > 0 && '…'}
      <MarkedText pieces={markedPieces(text, from, to, matches, at)} />
      {to < text.length && `… (${text.length.toLocaleString('en-US')} characters; Raw shows them all)`}
    </>
  );
}

function Leaf({ value, query, current }: { value: Json; query: string; current: TreeMatch | null }) {
  const text = <RowText text={leafText(value)} query={query} current={current} />;
  if (typeof value === 'string') {
    return <span className="jv-string">&quot;{text}&quot;</span>;
  }
  return (
    <span className={typeof value === 'number' ? 'jv-number' : typeof value === 'boolean' ? 'jv-boolean' : 'jv-null'}>
      {text}
    </span>
  );
}

/**
 * The JSON tree, opened with its first level shown and every container below it
 * folded; a container unfolds on click or with the keyboard (the ARIA tree pattern:
 * arrows, Home, End, Enter). Only the rows on screen are in the page. The current
 * find match unfolds the containers around it and is scrolled to.
 */
export function BodyTree({ root, query, matches, current }: Props) {
  const [expanded, setExpanded] = useState<ReadonlySet<JsonContainer>>(() => new Set(isContainer(root) ? [root] : []));
  const rows = useMemo(() => visibleRows(root, expanded), [root, expanded]);
  const [active, setActive] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  // Set by the keyboard: focus follows the active row once it is drawn.
  const focusActive = useRef(false);
  const activeRow = Math.min(active, rows.length - 1);
  const rangeExtractor = useCallback(
    // The active row is always drawn, so the tree keeps its tab stop wherever it is scrolled.
    (range: Range) => {
      const shown = defaultRangeExtractor(range);
      if (activeRow < 0 || shown.includes(activeRow)) return shown;
      return [...shown, activeRow].sort((a, b) => a - b);
    },
    [activeRow],
  );
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 10,
    rangeExtractor,
  });

  const match = matches[current] ?? null;
  // The current match's containers unfold (only those: every match unfolded would unfold the body).
  useEffect(() => {
    if (match === null) return;
    setExpanded((open) => (match.path.every((c) => open.has(c)) ? open : new Set([...open, ...match.path])));
  }, [match]);
  const matchRow = match === null ? -1 : rowOfMatch(rows, match);
  useEffect(() => {
    if (matchRow === -1) return;
    setActive(matchRow);
    virtual.scrollToIndex(matchRow, { align: 'center' });
  }, [matchRow, virtual]);
  useEffect(() => {
    if (!focusActive.current) return;
    const el = scroller.current?.querySelector<HTMLElement>(`[data-index="${activeRow}"]`);
    if (el) {
      el.focus({ preventScroll: true });
      focusActive.current = false;
    }
  });

  const toggle = (value: JsonContainer, open: boolean): void =>
    setExpanded((was) => {
      const next = new Set(was);
      if (open) next.add(value);
      else next.delete(value);
      return next;
    });
  const moveTo = (i: number): void => {
    const to = Math.max(0, Math.min(rows.length - 1, i));
    setActive(to);
    focusActive.current = true;
    virtual.scrollToIndex(to, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const row = rows[activeRow];
    if (!row) return;
    const container = isContainer(row.value) ? row.value : null;
    const open = container !== null && expanded.has(container);
    switch (e.key) {
      case 'ArrowDown':
        moveTo(activeRow + 1);
        break;
      case 'ArrowUp':
        moveTo(activeRow - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'ArrowRight':
        if (container !== null && !open) toggle(container, true);
        else if (open) moveTo(activeRow + 1);
        break;
      case 'ArrowLeft':
        if (open) toggle(container, false);
        else moveTo(parentRow(rows, activeRow));
        break;
      case 'Enter':
      case ' ':
        if (container !== null) toggle(container, !open);
        break;
      default:
        return;
    }
    // The tree's keys are the tree's: not the page's scrolling, nor the inspector's shortcuts (arrows move in the list).
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <div className="json-tree" role="tree" aria-label="JSON tree" ref={scroller} onKeyDown={onKeyDown}>
      <div style={{ height: virtual.getTotalSize() }} className="body-lines-sizer">
        {virtual.getVirtualItems().map((item) => {
          const row = rows[item.index]!;
          const container = isContainer(row.value) ? row.value : null;
          const open = container !== null && expanded.has(container);
          const here = match !== null && match.parent === row.parent && match.key === row.key ? match : null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtual.measureElement}
              role="treeitem"
              aria-level={row.level}
              aria-posinset={row.position}
              aria-setsize={row.siblings}
              aria-expanded={container === null ? undefined : open}
              aria-selected={item.index === activeRow}
              tabIndex={item.index === activeRow ? 0 : -1}
              className="tree-row"
              style={{ transform: `translateY(${item.start}px)`, paddingLeft: `${(row.level - 1) * 16 + 4}px` }}
              onClick={() => {
                setActive(item.index);
                if (container !== null) toggle(container, !open);
              }}
            >
              <span className="tree-toggle" aria-hidden="true">
                {container === null ? '' : open ? '▾' : '▸'}
              </span>
              <RowKey row={row} query={query} current={here?.part === 'key' ? here : null} />
              {container !== null ? (
                <span className="jv-punctuation">{containerSummary(container)}</span>
              ) : (
                <Leaf value={row.value} query={query} current={here?.part === 'value' ? here : null} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}

function RowKey({ row, query, current }: { row: TreeRow; query: string; current: TreeMatch | null }) {
  if (row.key === null) return null;
  if (typeof row.key === 'number') return <span className="jv-index">{row.key}: </span>;
  return (
    <>
      <span className="jv-label">
        <RowText text={keyText(row.key)} query={query} current={current} />
      </span>
      <span className="jv-punctuation">: </span>
    </>
  );
}

/** The row of the container holding row `i` (the row itself at the top level). */
function parentRow(rows: readonly TreeRow[], i: number): number {
  const level = rows[i]!.level;
  for (let j = i - 1; j >= 0; j--) if (rows[j]!.level < level) return j;
  return i;
}
