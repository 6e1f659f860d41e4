import { isAbsoluteHttpUrl } from '../api-client/shared.ts';
import { UsageError } from './cli-output.ts';

/** A code as the engine mints them (32 random bytes, base64url), with room for other lengths. */
const CODE = /^[A-Za-z0-9_-]{16,200}$/;
/** Where a sign-in link carries its code: `<api>/#/sign-in/<code>` (server/session/session-service.ts). */
const LINK_FRAGMENT = /^#\/sign-in\/([^/?#]+)$/;

/** The code in what the user pasted: the whole sign-in link `hookscope open --print` printed, or just its code. */
export function signInCodeFrom(text: string): string {
  const value = text.trim();
  if (isAbsoluteHttpUrl(value)) {
    const code = LINK_FRAGMENT.exec(new URL(value).hash)?.[1];
    if (code === undefined || !CODE.test(code)) {
      throw new UsageError(
        'That link carries no sign-in code: paste the whole link `hookscope open --print` printed (…/#/sign-in/<code>).',
      );
    }
    return code;
  }
  if (!CODE.test(value)) {
    throw new UsageError(
      'That is neither a sign-in link nor a sign-in code: paste the link `hookscope open --print` printed on the server, or its code.',
    );
  }
  return value;
}
