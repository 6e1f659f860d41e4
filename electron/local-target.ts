import type { Checked } from './engine-choice.ts';

/** 127.0.0.0/8 as the URL parser writes it (it normalises `127.1`, `0x7f.0.0.1` and `2130706433` to dotted decimal). */
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/**
 * Where the desktop app itself sends (`sendFromThisComputer`): this computer
 * only. The page that asks may be a team server's, and whatever the main
 * process sends goes out from the laptop, inside its network; so only http(s)
 * to loopback (`localhost`, 127.0.0.0/8, `[::1]`), without credentials in the
 * URL, else the page could use the laptop as a proxy to the LAN or the
 * metadata service. A team server reaches every other address itself.
 */
export function localTarget(input: string): Checked<URL> {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return { ok: false, error: `"${input}" is not an absolute URL; the desktop app sends only to this computer.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, error: `The desktop app sends only over http:// or https:// (not ${url.protocol}).` };
  if (url.username !== '' || url.password !== '')
    return { ok: false, error: 'The target URL must not carry a user name or password; send an Authorization header.' };
  const host = url.hostname;
  if (host !== 'localhost' && host !== '[::1]' && !LOOPBACK_V4.test(host))
    return {
      ok: false,
      error: `The desktop app sends only to this computer (localhost, 127.0.0.1 or [::1]); ${url.origin}/ is sent by the team server.`,
    };
  return { ok: true, value: url };
}
