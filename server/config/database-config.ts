import { z } from 'zod';
import { ConfigError } from '../errors/config-error.ts';

/**
 * The team store (README "Team server"): a PostgreSQL URL given by
 * `--database`, HOOKSCOPE_DATABASE_URL or config.json's `database.url`.
 * Without one the engine keeps the embedded sql.js store in its data directory.
 */

export const DATABASE_URL_RULE =
  'must be a postgres:// or postgresql:// URL naming a host and a database, such as postgres://hookscope@db.internal/hookscope';

/** Whether `value` is a PostgreSQL connection URL node-postgres can use: the scheme, a host, a database name. */
export function isDatabaseUrl(value: string): boolean {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return false;
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') return false;
  // postgres: is not a special scheme: the parser leaves an empty host to us.
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  return u.hostname !== '' && database !== '' && !database.includes('/');
}

export const databaseUrl = z
  .string({ error: `${DATABASE_URL_RULE}.` })
  .refine(isDatabaseUrl, { error: `${DATABASE_URL_RULE}.` });

/**
 * The URL as the banner and the engine log show it: the password replaced, so
 * neither a terminal scroll-back nor a log file ever holds it.
 */
export function describeDatabaseUrl(value: string): string {
  const u = new URL(value);
  if (u.password) u.password = '***';
  return u.toString();
}

/**
 * The tunnel gives one laptop a public URL through localtunnel; a team server is
 * several instances behind the team's own proxy, where a tunnel per instance
 * would hand out a different receiving URL from each.
 */
export function refuseTunnelWithDatabase(database: string | null, tunnelEnabled: boolean): void {
  if (database !== null && tunnelEnabled) {
    throw new ConfigError(
      '--database and --tunnel cannot be used together: a team server on PostgreSQL is reached through your own ' +
        'reverse proxy (--public-url), the tunnel is for a laptop. Drop --tunnel (the tunnel is also on when ' +
        'config.json says tunnel.enabled).',
      '--tunnel',
    );
  }
}
