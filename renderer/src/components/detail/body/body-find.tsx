import { matchCountText } from '../../../lib/body-views-find.ts';

interface Props {
  /** What the box holds. */
  query: string;
  /** What was searched for (the same, once a large body's search has caught up with the typing). */
  found: string;
  onQuery: (query: string) => void;
  current: number;
  total: number;
  capped: boolean;
  /** Moves to the next match (1) or the previous one (-1). */
  onStep: (by: 1 | -1) => void;
}

/** The find box over the body: Enter goes to the next match, Shift+Enter to the previous; it says "3 of 12". */
export function BodyFind({ query, found, onQuery, current, total, capped, onStep }: Props) {
  return (
    <div className="body-find">
      <input
        type="search"
        aria-label="Find in body"
        placeholder="Find in body"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Enter') return;
          e.preventDefault();
          onStep(e.shiftKey ? -1 : 1);
        }}
      />
      <span className="find-count" role="status">
        {matchCountText(found, current, total, capped)}
      </span>
      <button
        type="button"
        className="secondary tiny"
        aria-label="Previous match"
        disabled={total === 0}
        onClick={() => onStep(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        className="secondary tiny"
        aria-label="Next match"
        disabled={total === 0}
        onClick={() => onStep(1)}
      >
        ↓
      </button>
    </div>
  );
}
