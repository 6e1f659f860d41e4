import Table from 'cli-table3';
import pc from 'picocolors';
import type { CliIO } from './cli-output.ts';
import { jsonWithEscapedControls } from './terminal-safe.ts';

export type Colors = ReturnType<typeof pc.createColors>;

/**
 * Colour only on a terminal, never when NO_COLOR is set (https://no-color.org:
 * present and not empty); FORCE_COLOR=1 forces it for piped output.
 */
export function colorsFor(io: CliIO): Colors {
  const env = io.env;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== '';
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0';
  return pc.createColors(!noColor && (force || io.isTTY === true));
}

// Borderless, two spaces between columns (like `docker ps`): readable on a
// terminal and easy to cut or grep when piped.
const PLAIN_CHARS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

/** A table as text; the head is bold when colours are on. Cells are plain strings (may carry colour). */
export function renderTable(head: string[] | null, rows: string[][], c: Colors): string {
  const table = new Table({
    ...(head ? { head: head.map((h) => c.bold(h)) } : {}),
    chars: PLAIN_CHARS,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
    wordWrap: false,
  });
  table.push(...rows);
  return table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

/**
 * `--json`: the API's `data`, pretty-printed, nothing else on stdout. The same
 * JSON value whether stdout is a terminal or a pipe: control characters inside
 * strings are always written as escapes.
 */
export function printJson(io: CliIO, data: unknown): void {
  io.out(jsonWithEscapedControls(JSON.stringify(data, null, 2)));
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Local wall-clock time: `2025-01-31 14:03:07`. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${formatClock(iso)}`;
}

/** Local time of day: `14:03:07`. */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function statusText(status: string, c: Colors): string {
  return status === 'success' ? c.green(status) : status === 'failed' ? c.red(status) : status;
}
