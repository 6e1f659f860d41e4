import { markBidiControls, splitBidiControls } from '../../../../server/api-client/shared.ts';

/** More markers than this are plain text: a body of nothing but controls must not become a million elements. */
const MAX_MARKER_ELEMENTS = 1000;

/**
 * Text a sender chose (a path, a header, a body), with each bidi control shown
 * as a marker such as ⟨U+202E⟩, named in its tooltip, instead of reordering what
 * is around it. The text in the page changes only where the markers are; copy
 * buttons and downloads take the exact value from the data, never from here.
 */
export function SenderText({ text }: { text: string }) {
  const parts = splitBidiControls(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return text;
  if (parts.length > 2 * MAX_MARKER_ELEMENTS) return markBidiControls(text);
  return parts.map((p, i) =>
    typeof p === 'string' ? (
      p
    ) : (
      <abbr
        key={i}
        className="bidi-mark"
        title={`${p.name}: an invisible character that reorders text, shown here instead of applied`}
      >
        {p.marker}
      </abbr>
    ),
  );
}
