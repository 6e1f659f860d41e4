/**
 * One pino JSON line as a line a person reads in a terminal:
 * `time LEVEL message key=value ...`, then an error's stack indented below.
 * A few lines of our own instead of pino-pretty: `hookscope serve` writes
 * through the CLI's injected `io.err`, and the format is this one sentence.
 */
export function formatLogLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.trimEnd();
  }
  const { time, level, msg, err, pid: _pid, hostname: _hostname, ...fields } = entry;
  const head = [text(time), text(level).toUpperCase().padEnd(5), text(msg)];
  const pairs = Object.entries(fields).map(([k, v]) => `${k}=${formatValue(v)}`);
  let line = [...head, ...pairs].join(' ');
  const stack = errorText(err);
  if (stack) line += `\n${stack.replace(/^/gm, '    ')}`;
  return line;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : formatValue(v));

function formatValue(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

function errorText(err: unknown): string | null {
  if (err === undefined) return null;
  if (typeof err !== 'object' || err === null) return formatValue(err);
  const e = err as { stack?: unknown; message?: unknown };
  if (typeof e.stack === 'string') return e.stack;
  return typeof e.message === 'string' ? e.message : JSON.stringify(err);
}
