import type { LogDetail } from '../../api/client.ts';
import { bodyBytes, HEX_ROW_BYTES, hexRow } from '../../lib/body-views.ts';
import { formatBytes } from '../../lib/format.ts';
import { SenderText } from '../shared/sender-text.tsx';

type SenderAnswer = NonNullable<LogDetail['answer']>;

/** What each kind of answer was, in words (keyed by the API's kinds: a new one does not compile until it is named). */
const KINDS: Record<SenderAnswer['kind'], string> = {
  accepted: 'Accepted: Hookscope’s default answer.',
  verification_failed: 'Refused: the signature did not verify.',
  refused: 'Refused: the receiver stopped reading the body.',
  custom: 'The endpoint’s custom response, as it was when the delivery came.',
};

/** A body that is not UTF-8, as `hexdump -C` lays it out (a custom body is at most 64 KiB). */
function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let row = 0; row * HEX_ROW_BYTES < bytes.length; row++) {
    const r = hexRow(bytes, row);
    lines.push(`${r.offset}  ${r.hex}  ${r.ascii}`);
  }
  return lines.join('\n');
}

function AnswerBody({ answer }: { answer: SenderAnswer }) {
  if (answer.body === '') return <p className="hint">No body.</p>;
  if (answer.bodyEncoding === 'base64') {
    const bytes = bodyBytes(answer.body, 'base64');
    return (
      <>
        <p className="hint">Binary body, {formatBytes(bytes.length)}:</p>
        <pre className="code answer-body" tabIndex={0} role="region" aria-label="Answer body">
          {hexDump(bytes)}
        </pre>
      </>
    );
  }
  return (
    // Focusable: a long body scrolls, and the keyboard must reach it.
    <pre className="code answer-body" tabIndex={0} role="region" aria-label="Answer body">
      <SenderText text={answer.body} />
    </pre>
  );
}

/**
 * "Answered to the sender": what the receiver answered this delivery, byte for byte
 * as the engine wrote it (status, headers, body, and a custom response's delay), or,
 * for a delivery stored before answers were recorded, that it is not known and why.
 */
export function AnswerCard({ detail }: { detail: LogDetail }) {
  const answer = detail.answer;
  return (
    <section className="answer-card" aria-label="Answered to the sender">
      <h3>Answered to the sender</h3>
      {answer === null ? (
        <p className="answer-unknown">Not known. {detail.answerUnknown}</p>
      ) : (
        <>
          <p className="answer-status">
            <strong>{answer.status}</strong> {KINDS[answer.kind]}
          </p>
          {answer.delayMs > 0 && (
            <p className="hint">
              Sent after the endpoint’s delay of {answer.delayMs} ms; a sender that hung up before then did not receive
              it.
            </p>
          )}
          <table className="kv">
            <tbody>
              {answer.headers.map(([name, value], i) => (
                <tr key={i}>
                  <th scope="row">
                    <SenderText text={name} />
                  </th>
                  <td>
                    <span className="header-value">
                      <SenderText text={value} />
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <AnswerBody answer={answer} />
        </>
      )}
    </section>
  );
}
