import type { MarkedPiece } from '../../../lib/body-views-find.ts';
import { SenderText } from '../../shared/sender-text.tsx';

/**
 * Text with the find box's matches marked (the current one apart, for the eye and
 * for tests), each piece with bidi controls shown as markers.
 */
export function MarkedText({ pieces }: { pieces: MarkedPiece[] }) {
  return pieces.map((p, i) =>
    p.mark === 'none' ? (
      <SenderText key={i} text={p.text} />
    ) : (
      <mark key={i} className={p.mark === 'current' ? 'find-match current' : 'find-match'}>
        <SenderText text={p.text} />
      </mark>
    ),
  );
}
