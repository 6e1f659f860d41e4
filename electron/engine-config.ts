import { loadConfigFile, resolveConfig, type EngineConfig } from '../server/config/config.ts';
import { resolveDataDir } from '../server/config/data-dir.ts';

/**
 * The tunnel in the desktop app: on unless config.json switches it off (the
 * Settings screen and the top bar's switch write it there). `serve` keeps its
 * own default, off, since a headless engine should not go public unasked.
 */
export function desktopTunnelEnabled(file: unknown): boolean {
  const enabled = (file as { tunnel?: { enabled?: unknown } } | null | undefined)?.tunnel?.enabled;
  return typeof enabled === 'boolean' ? enabled : true;
}

/**
 * The engine's configuration for the desktop app, resolved as `serve` resolves
 * it: the same data directory (HOOKSCOPE_DATA_DIR, else the OS's per-user data
 * folder), so `hookscope` commands find this engine through its runtime.json,
 * and the same environment and config.json; only the tunnel default differs.
 */
export async function desktopEngineConfig(env: NodeJS.ProcessEnv): Promise<EngineConfig> {
  const dataDir = resolveDataDir({ env });
  const file = await loadConfigFile(dataDir);
  return resolveConfig({ dataDir, env, file, flags: { tunnel: desktopTunnelEnabled(file) } });
}
