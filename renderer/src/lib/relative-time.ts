const UNITS: [limitSeconds: number, divisor: number, unit: string][] = [
  [60, 1, 's'],
  [3600, 60, 'min'],
  [86_400, 3600, 'h'],
  [Infinity, 86_400, 'd'],
];

/**
 * "12 s ago", "5 min ago", "3 h ago", "2 d ago"; "just now" under 5 s and for
 * times slightly ahead of the clock (the engine's and the page's clocks may differ).
 */
export function relativeTime(thenMs: number, nowMs: number): string {
  const seconds = Math.floor((nowMs - thenMs) / 1000);
  if (seconds < 5) return 'just now';
  for (const [limit, divisor, unit] of UNITS) {
    if (seconds < limit) return `${Math.floor(seconds / divisor)} ${unit} ago`;
  }
  return 'just now';
}

/** The exact time a row shows beside the relative one: local, to the second. */
export function exactTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
