import { sendFromThisComputer, type LocalSendAnswer } from '../../electron/local-send.ts';
import { send } from '../../server/replay/http-sender.ts';

/**
 * The desktop app's `sendFromThisComputer` as its main process answers it once the
 * sender is checked (electron/desktop-bridge.ts): the request checked, sent with the
 * real http-sender. For the renderer's tests, whose bridge stand-ins call it.
 */
export function desktopSend(request: unknown): Promise<LocalSendAnswer> {
  return sendFromThisComputer(request, send);
}
