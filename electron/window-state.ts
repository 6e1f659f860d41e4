import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../server/support/private-files.ts';

/** A rectangle in screen coordinates (Electron's `Rectangle`). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The window as it was left: its normal (not maximized) bounds, and whether it was maximized. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** Where the window opens: a size, a position when a remembered one is still on screen, maximized or not. */
export interface WindowPlacement {
  width: number;
  height: number;
  x?: number;
  y?: number;
  maximized: boolean;
}

export const WINDOW_STATE_FILE = 'window-state.json';
export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;
export const MIN_SIZE = { width: 720, height: 480 } as const;
/** How much of the title bar must be on a display for a remembered position to count as visible. */
const GRIP = { width: 120, height: 40 } as const;

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The remembered state, or null when the file's content is not one (hand-edited, from another version, torn). */
export function parseWindowState(raw: unknown): WindowState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { bounds, maximized } = raw as { bounds?: unknown; maximized?: unknown };
  if (typeof bounds !== 'object' || bounds === null || typeof maximized !== 'boolean') return null;
  const { x, y, width, height } = bounds as Record<string, unknown>;
  if (!isInt(x) || !isInt(y) || !isInt(width) || !isInt(height) || width <= 0 || height <= 0) return null;
  return { bounds: { x, y, width, height }, maximized };
}

const overlap = (a: Rect, b: Rect): { width: number; height: number } => ({
  width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x),
  height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y),
});

const clampSize = (width: number, height: number, area: Rect): { width: number; height: number } => ({
  width: Math.max(Math.min(width, area.width), Math.min(MIN_SIZE.width, area.width)),
  height: Math.max(Math.min(height, area.height), Math.min(MIN_SIZE.height, area.height)),
});

/**
 * Where to open the window, given the remembered state and the displays' work
 * areas now (the primary first). A position is kept only while the window's
 * top strip lands on a display (a monitor unplugged since, a resolution lowered),
 * then pulled inside that display; otherwise the window opens centred on the
 * primary display at its remembered size. Sizes never exceed the display.
 */
export function placeWindow(saved: WindowState | null, workAreas: readonly Rect[]): WindowPlacement {
  const primary = workAreas[0];
  if (!saved) {
    const size = primary ? clampSize(DEFAULT_SIZE.width, DEFAULT_SIZE.height, primary) : { ...DEFAULT_SIZE };
    return { ...size, maximized: false };
  }
  const { bounds } = saved;
  const titleStrip: Rect = { x: bounds.x, y: bounds.y, width: bounds.width, height: GRIP.height };
  const home = workAreas.find((area) => {
    const o = overlap(titleStrip, area);
    return o.width >= Math.min(GRIP.width, bounds.width) && o.height >= Math.min(GRIP.height, bounds.height);
  });
  if (!home) {
    const size = primary
      ? clampSize(bounds.width, bounds.height, primary)
      : clampSize(bounds.width, bounds.height, bounds);
    return { ...size, maximized: saved.maximized };
  }
  const size = clampSize(bounds.width, bounds.height, home);
  const x = Math.min(Math.max(bounds.x, home.x), home.x + home.width - size.width);
  const y = Math.min(Math.max(bounds.y, home.y), home.y + home.height - size.height);
  return { ...size, x, y, maximized: saved.maximized };
}

/** `<dataDir>/window-state.json`, parsed and checked; null when missing or unusable. */
export async function readWindowState(dataDir: string): Promise<WindowState | null> {
  try {
    return parseWindowState(JSON.parse(await readFile(join(dataDir, WINDOW_STATE_FILE), 'utf8')));
  } catch {
    return null;
  }
}

/** Writes the state (0600, replaced atomically, so a crash mid-write leaves the previous one). */
export async function writeWindowState(dataDir: string, state: WindowState): Promise<void> {
  await writePrivateFileAtomic(join(dataDir, WINDOW_STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
}
