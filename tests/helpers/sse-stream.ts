/**
 * A small, independent reader of `text/event-stream` for tests: it keeps the
 * raw text (so the wire format itself can be asserted) and the parsed events.
 */
export interface SseEvent {
  id: string | undefined;
  event: string | undefined;
  data: string;
}

export interface SseStream {
  response: Response;
  raw(): string;
  events(): SseEvent[];
  /** Resolves once an event matching `pred` has arrived (or rejects after `timeoutMs`, a hang guard, not a timing assertion). */
  waitFor(pred: (e: SseEvent) => boolean, timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once the raw text (from `fromOffset` on) matches. */
  waitForText(re: RegExp, timeoutMs?: number, fromOffset?: number): Promise<void>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  let text = '';
  const parsed: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };

  const ended = (async () => {
    if (!response.body || !response.ok) return;
    const decoder = new TextDecoder();
    let pending = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        const s = decoder.decode(chunk, { stream: true });
        text += s;
        pending += s;
        let cut: number;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          const e: SseEvent = { id: undefined, event: undefined, data: '' };
          let hasData = false;
          for (const line of block.split('\n')) {
            const m = /^([a-z]+): ?(.*)$/.exec(line);
            if (!m) continue;
            if (m[1] === 'id') e.id = m[2];
            if (m[1] === 'event') e.event = m[2];
            if (m[1] === 'data') {
              e.data += (hasData ? '\n' : '') + m[2];
              hasData = true;
            }
          }
          if (hasData) parsed.push(e);
        }
        wake();
      }
    } catch {
      // aborted by close()
    } finally {
      wake();
    }
  })();

  const waitUntil = <T>(check: () => T | undefined, what: string, timeoutMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const attempt = (): boolean => {
        const v = check();
        if (v === undefined) return false;
        waiters.delete(attempt);
        clearTimeout(timer);
        resolve(v);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(attempt);
        reject(new Error(`timed out waiting for ${what}; received so far:\n${text}`));
      }, timeoutMs);
      if (!attempt()) waiters.add(attempt);
    });

  return {
    response,
    raw: () => text,
    events: () => [...parsed],
    waitFor: (pred, timeoutMs = 10_000) => waitUntil(() => parsed.find(pred), 'an event', timeoutMs),
    waitForText: (re, timeoutMs = 10_000, fromOffset = 0) =>
      waitUntil(() => (re.test(text.slice(fromOffset)) ? true : undefined), String(re), timeoutMs).then(
        () => undefined,
      ),
    ended,
    close: () => controller.abort(),
  };
}

/** Polls a condition until it holds (a hang guard, not a timing assertion). */
export async function eventually(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
