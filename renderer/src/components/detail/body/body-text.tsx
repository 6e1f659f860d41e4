import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { markedPieces, type TextMatches } from '../../../lib/body-views-find.ts';
import { rowOfOffset, rowSpan, wrapText } from '../../../lib/body-views-lines.ts';
import { LARGE_BODY_CHARS } from '../../../lib/body-views.ts';
import { MarkedText } from './marked-text.tsx';

/** A row of the virtualised text, in px: the stylesheet's line-height for `.body-lines` rows. */
export const TEXT_ROW_PX = 18;
/** Columns when the width cannot be measured (a test's jsdom has no layout). */
const FALLBACK_COLS = 100;
const MIN_COLS = 20;

interface Props {
  text: string;
  /** What the region is called (Raw text, Pretty text). */
  label: string;
  matches: TextMatches;
  /** The current match's index in `matches`. */
  current: number;
}

/**
 * Raw or pretty text, with the find box's matches marked and the current one
 * scrolled into view. Up to LARGE_BODY_CHARS it is one <pre>, so selecting and
 * copying any part gives the exact text; beyond, only the rows on screen are in the
 * page (lib/body-views-lines.ts cuts the lines where the browser would wrap them).
 */
export function BodyText(props: Props) {
  return props.text.length > LARGE_BODY_CHARS ? <VirtualText {...props} /> : <WholeText {...props} />;
}

function WholeText({ text, label, matches, current }: Props) {
  const pre = useRef<HTMLPreElement>(null);
  useEffect(() => {
    // jsdom has no scrollIntoView; a browser always does.
    pre.current?.querySelector('mark.current')?.scrollIntoView?.({ block: 'nearest' });
  }, [matches, current]);
  return (
    <pre className="code" tabIndex={0} role="region" aria-label={label} ref={pre}>
      <MarkedText pieces={markedPieces(text, 0, text.length, matches, current)} />
    </pre>
  );
}

function VirtualText({ text, label, matches, current }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const sizer = useRef<HTMLDivElement>(null);
  const probe = useRef<HTMLSpanElement>(null);
  const [cols, setCols] = useState(FALLBACK_COLS);
  // The columns that fit: the content width over one monospace character, again on each resize.
  useLayoutEffect(() => {
    const measure = (): void => {
      const width = sizer.current?.clientWidth ?? 0;
      const char = (probe.current?.getBoundingClientRect().width ?? 0) / 10;
      setCols(width > 0 && char > 0 ? Math.max(MIN_COLS, Math.floor(width / char)) : FALLBACK_COLS);
    };
    measure();
    if (typeof ResizeObserver === 'undefined' || !sizer.current) return;
    const observer = new ResizeObserver(measure);
    observer.observe(sizer.current);
    return () => observer.disconnect();
  }, []);
  const wrapped = useMemo(() => wrapText(text, cols), [text, cols]);
  const rows = useVirtualizer({
    count: wrapped.rows,
    getScrollElement: () => scroller.current,
    estimateSize: () => TEXT_ROW_PX,
    overscan: 20,
  });
  const target = matches.starts[current];
  useEffect(() => {
    if (target !== undefined) rows.scrollToIndex(rowOfOffset(wrapped, target), { align: 'center' });
  }, [target, wrapped, rows]);

  return (
    <div className="code body-lines" tabIndex={0} role="region" aria-label={label} ref={scroller}>
      <span className="char-probe" aria-hidden="true" ref={probe}>
        0000000000
      </span>
      <div ref={sizer} style={{ height: rows.getTotalSize() }} className="body-lines-sizer">
        {rows.getVirtualItems().map((item) => {
          const [from, to] = rowSpan(text, wrapped, item.index);
          return (
            <div key={item.key} className="body-line" style={{ transform: `translateY(${item.start}px)` }}>
              <MarkedText pieces={markedPieces(text, from, to, matches, current)} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
