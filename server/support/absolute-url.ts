/** What checkHttpUrl found: the parsed URL, or why the text is not an absolute http(s) URL. */
export type HttpUrlCheck =
  { ok: true; url: URL } | { ok: false; reason: 'unparsable' } | { ok: false; reason: 'not_http'; protocol: string };

/**
 * The one test of "an absolute http:// or https:// URL", used by request
 * schemas, configuration, the replay target and the tunnel server's answer, so
 * they all accept the same strings. The WHATWG parser decides (no base, so a
 * relative reference does not parse); http and https are special schemes, which
 * it refuses without a host, so a parsed one always names a host.
 */
export function checkHttpUrl(value: string): HttpUrlCheck {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { ok: false, reason: 'unparsable' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: 'not_http', protocol: url.protocol.replace(/:$/, '') };
  }
  return { ok: true, url };
}

export const isAbsoluteHttpUrl = (value: string): boolean => checkHttpUrl(value).ok;
