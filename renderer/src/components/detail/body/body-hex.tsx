import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { HEX_ROW_BYTES, hexRow } from '../../../lib/body-views.ts';
import { TEXT_ROW_PX } from './body-text.tsx';

/**
 * The bytes as `hexdump -C` lays them out: offset, 16 bytes, their ASCII. Rows
 * never wrap (each column stays at its place; a narrow pane scrolls sideways), and
 * only the rows on screen are in the page, so a 10 MB body is as quick as a small one.
 */
export function BodyHex({ bytes }: { bytes: Uint8Array }) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({
    count: Math.ceil(bytes.length / HEX_ROW_BYTES),
    getScrollElement: () => scroller.current,
    estimateSize: () => TEXT_ROW_PX,
    overscan: 20,
  });
  return (
    <div className="code body-lines hex" tabIndex={0} role="region" aria-label="Hex dump" ref={scroller}>
      <div style={{ height: rows.getTotalSize() }} className="body-lines-sizer">
        {rows.getVirtualItems().map((item) => {
          const row = hexRow(bytes, item.index);
          return (
            <div key={item.key} className="body-line hex-row" style={{ transform: `translateY(${item.start}px)` }}>
              <span className="hex-offset">{row.offset}</span>
              {'  '}
              <span className="hex-bytes">{row.hex}</span>
              {'  '}
              <span className="hex-ascii">{row.ascii}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
