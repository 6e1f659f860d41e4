import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writePrivateFileAtomic } from '../server/support/private-files.ts';
import { parseTeamServerUrl } from './engine-choice.ts';
import { parseForwardChoices, type ForwardChoice } from './forward-input.ts';

/**
 * What only the desktop app has, kept in `<dataDir>/desktop.json`: the engine's
 * own settings live in config.json, which `serve` reads too.
 */
export interface DesktopSettings {
  /** A native notification for each failed delivery (the tray's "Notify on failed deliveries"). */
  notifyOnFailedDelivery: boolean;
  /** The team server the window shows (Settings, "Team server"), or null for "This computer". */
  teamServer: { url: string } | null;
  /**
   * "Forward from this computer" per team server URL (normalised as `teamServer.url`), kept while another
   * engine is shown, so its forwards resume when it is shown again.
   */
  forwards: Record<string, ForwardChoice[]>;
}

export const DESKTOP_SETTINGS_FILE = 'desktop.json';
export const DEFAULT_DESKTOP_SETTINGS: DesktopSettings = {
  notifyOnFailedDelivery: true,
  teamServer: null,
  forwards: {},
};

/** The settings from the file's content; a missing or malformed value keeps its default. */
export function parseDesktopSettings(raw: unknown): DesktopSettings {
  const fields = raw as {
    notifyOnFailedDelivery?: unknown;
    teamServer?: { url?: unknown } | null;
    forwards?: unknown;
  } | null;
  const notify = fields?.notifyOnFailedDelivery;
  const teamUrl = fields?.teamServer?.url;
  // A hand-edited URL goes through the same check as one typed in Settings: a refused one means "This computer".
  const team = typeof teamUrl === 'string' ? parseTeamServerUrl(teamUrl) : null;
  return {
    notifyOnFailedDelivery: typeof notify === 'boolean' ? notify : DEFAULT_DESKTOP_SETTINGS.notifyOnFailedDelivery,
    teamServer: team?.ok ? { url: team.value } : null,
    forwards: parseForwards(fields?.forwards),
  };
}

/** Per team server, its forward choices; a URL the team server check refuses, or not in its normal form, is dropped. */
function parseForwards(raw: unknown): Record<string, ForwardChoice[]> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return {};
  const forwards: Record<string, ForwardChoice[]> = {};
  for (const [url, choices] of Object.entries(raw)) {
    const team = parseTeamServerUrl(url);
    const parsed = parseForwardChoices(choices);
    if (team.ok && team.value === url && parsed.length > 0) forwards[url] = parsed;
  }
  return forwards;
}

export async function readDesktopSettings(dataDir: string): Promise<DesktopSettings> {
  try {
    return parseDesktopSettings(JSON.parse(await readFile(join(dataDir, DESKTOP_SETTINGS_FILE), 'utf8')));
  } catch {
    return { ...DEFAULT_DESKTOP_SETTINGS, forwards: {} };
  }
}

export async function writeDesktopSettings(dataDir: string, settings: DesktopSettings): Promise<void> {
  await writePrivateFileAtomic(join(dataDir, DESKTOP_SETTINGS_FILE), `${JSON.stringify(settings, null, 2)}\n`);
}
