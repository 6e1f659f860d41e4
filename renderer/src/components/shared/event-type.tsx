import { markBidiControls } from '../../../../server/api-client/shared.ts';
import { SenderText } from './sender-text.tsx';

/** The event a delivery names (`checkout.session.completed`), cut short when the pane is narrow; the title has it whole. */
export function EventType({ name }: { name: string }) {
  return (
    <span className="event-type" title={`Event type: ${markBidiControls(name)}`}>
      <SenderText text={name} />
    </span>
  );
}
