/**
 * Whether `url` answers as a Hookscope engine (`GET /api/version`, which needs
 * no token), before the window is sent there: null when it does, else a
 * sentence for the user. `fetch` and the time limit are passed in.
 */
export async function checkTeamServer(
  url: string,
  fetchFn: (input: string, init: { signal: AbortSignal }) => Promise<Response>,
  timeoutMs: number,
): Promise<string | null> {
  let response: Response;
  try {
    response = await fetchFn(`${url}/api/version`, { signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const reason =
      err instanceof Error && err.name === 'TimeoutError' ? 'no answer in time' : 'it could not be reached';
    return `The team server at ${url} did not answer (${reason}).`;
  }
  const body: unknown = await response.json().catch(() => null);
  const name = (body as { data?: { name?: unknown } } | null)?.data?.name;
  return name === 'hookscope'
    ? null
    : `${url} is not a Hookscope server (GET /api/version answered ${response.status}).`;
}
