import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../server/support/private-files.ts';

/**
 * What only the desktop app has, kept in `<dataDir>/desktop.json`: the engine's
 * own settings live in config.json, which `serve` reads too.
 */
export interface DesktopSettings {
  /** A native notification for each failed delivery (the tray's "Notify on failed deliveries"). */
  notifyOnFailedDelivery: boolean;
}

export const DESKTOP_SETTINGS_FILE = 'desktop.json';
export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = { notifyOnFailedDelivery: true };

/** The settings from the file's content; a missing or malformed value keeps its default. */
export function parseDesktopSettings(raw: unknown): DesktopSettings {
  const notify = (raw as { notifyOnFailedDelivery?: unknown } | null)?.notifyOnFailedDelivery;
  return {
    notifyOnFailedDelivery: typeof notify === 'boolean' ? notify : DEFAULT_DESKTOP_SETTINGS.notifyOnFailedDelivery,
  };
}

export async function readDesktopSettings(dataDir: string): Promise<DesktopSettings> {
  try {
    return parseDesktopSettings(JSON.parse(await readFile(join(dataDir, DESKTOP_SETTINGS_FILE), 'utf8')));
  } catch {
    return { ...DEFAULT_DESKTOP_SETTINGS };
  }
}

export async function writeDesktopSettings(dataDir: string, settings: DesktopSettings): Promise<void> {
  await writePrivateFileAtomic(join(dataDir, DESKTOP_SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`);
}
