import { execFile, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { chown, mkdtemp, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * A real PostgreSQL for tests (never a mock, pg-mem or a WASM build).
 *
 * With HOOKSCOPE_TEST_DATABASE_URL (an admin URL of a running server, as .ci/run
 * exports) the tests use that server. Otherwise the first call starts one cluster
 * for this test process: initdb in a temp dir, pg_ctl on a free loopback port,
 * stopped and removed when the process exits (or by `stopTestPostgres` in an
 * `after` hook). PostgreSQL refuses to run as root, so as root the cluster runs
 * as the `postgres` user (runuser), as DESIGN.md's build-machine facts say.
 *
 * Each test gets its own database from `freshDatabase()`: tests never share data.
 */

const ENV_URL = 'HOOKSCOPE_TEST_DATABASE_URL';
const run = promisify(execFile);

export interface FreshDatabase {
  /** A URL to a new, empty database of its own. */
  url: string;
  /** Drops the database, closing any connection still open to it. */
  drop(): Promise<void>;
}

export interface TestServer {
  adminUrl: string;
  stop(): void;
}

// One cluster per test process, started on first use: test files run in processes of their own.
let server: Promise<TestServer> | undefined;

export async function freshDatabase(o: DatabaseOptions = {}): Promise<FreshDatabase> {
  const { adminUrl } = await (server ??= startServer());
  return createDatabase(adminUrl, o);
}

export interface DatabaseOptions {
  /** The database's encoding (default: the cluster's, UTF8). */
  encoding?: 'UTF8' | 'LATIN1' | 'SQL_ASCII';
}

/** A new, empty database on the cluster at `adminUrl` (freshDatabase's, or one from startPostgresCluster). */
export async function createDatabase(adminUrl: string, o: DatabaseOptions = {}): Promise<FreshDatabase> {
  const name = `hookscope_test_${randomUUID().replaceAll('-', '')}`;
  // Another encoding than the template's needs template0, and a locale that admits it ("C" admits any).
  const encoding = o.encoding ? ` ENCODING '${o.encoding}' TEMPLATE template0 LC_COLLATE 'C' LC_CTYPE 'C'` : '';
  await asAdmin(adminUrl, `CREATE DATABASE ${name}${encoding}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    // FORCE: a connection a failed test left open must not keep its database alive.
    drop: () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Stops this process's cluster, if it started one (for a file's `after` hook; exit does it too). */
export async function stopTestPostgres(): Promise<void> {
  const started = server;
  server = undefined;
  if (started) (await started).stop();
}

async function asAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function startServer(): Promise<TestServer> {
  const given = process.env[ENV_URL];
  if (given) return { adminUrl: given, stop: () => {} };
  return startPostgresCluster({ durable: false });
}

/**
 * A cluster of its own on a free loopback port, as the tests' (stopped and removed
 * when the process exits, or by its `stop`). Tests run it with fsync and
 * synchronous_commit off (`durable: false`); the benchmark with both on, as production runs.
 */
export async function startPostgresCluster(o: { durable: boolean }): Promise<TestServer> {
  const bin = postgresBinDir();
  const asRoot = process.getuid?.() === 0;
  // mkdtemp makes the dir 0700: as root it is handed to postgres; /tmp itself is world-readable.
  const dir = await mkdtemp(join(tmpdir(), 'hookscope-pg-'));
  if (asRoot) await chown(dir, ...postgresIds());
  const data = join(dir, 'data');
  const as = (tool: string, args: string[]): [string, string[]] =>
    asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const removeDir = () => rmSync(dir, { recursive: true, force: true });
  try {
    // UTF-8 whatever the machine's locale (an unset LANG would give SQL_ASCII); --no-sync: a throwaway cluster.
    await run(...as('initdb', ['-D', data, '--auth=trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C', '--no-sync']));
    const port = await startOnFreePort(data, dir, as, o.durable);
    // 'exit' handlers run synchronously, hence spawnSync; a signal skips them, so it stops the cluster too.
    const onSignal = (signal: NodeJS.Signals): void => {
      stop();
      process.kill(process.pid, signal);
    };
    const stop = (): void => {
      process.off('exit', stop).off('SIGINT', onSignal).off('SIGTERM', onSignal);
      spawnSync(...as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']), { stdio: 'ignore' });
      removeDir();
    };
    process.on('exit', stop).on('SIGINT', onSignal).on('SIGTERM', onSignal);
    return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
  } catch (e) {
    removeDir();
    throw e;
  }
}

/** A free port can be taken by someone else before postgres binds it: then try another. */
async function startOnFreePort(
  data: string,
  socketDir: string,
  as: (tool: string, args: string[]) => [string, string[]],
  durable: boolean,
): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const port = await freeLoopbackPort();
    // fsync off unless asked: a test's cluster is thrown away with the process, and tests gain its sync time.
    const sync = durable ? '-c fsync=on -c synchronous_commit=on' : '-c fsync=off -c synchronous_commit=off';
    const options = `-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1 ${sync}`;
    try {
      // -l: the server's output goes to a file, not to pipes this process would wait on.
      await run(...as('pg_ctl', ['-D', data, '-o', options, '-l', join(socketDir, 'server.log'), '-w', 'start']));
      return port;
    } catch (e) {
      if (attempt === 3) {
        const log = await readFile(join(socketDir, 'server.log'), 'utf8').catch(() => '');
        throw new Error(`PostgreSQL for tests did not start: ${(e as Error).message}\n${log}`, { cause: e });
      }
    }
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Debian's layout (/usr/lib/postgresql/<major>/bin, newest first), else initdb on PATH. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) if (existsSync(join(root, major, 'bin', 'initdb'))) return join(root, major, 'bin');
  const onPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return dirname(onPath);
  throw new Error(
    'Tests need a real PostgreSQL, and no initdb was found (in /usr/lib/postgresql/*/bin or on PATH). ' +
      `Install it (\`apt-get install -y postgresql\`) or set ${ENV_URL} to the admin URL of a running server ` +
      '(postgres://postgres@127.0.0.1:5432/postgres).',
  );
}

function postgresIds(): [number, number] {
  const id = (flag: string) => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const ids: [number, number] = [id('-u'), id('-g')];
  if (!ids.every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error(
      'Running as root, tests start PostgreSQL as the `postgres` user, and there is none. ' +
        `Install PostgreSQL (\`apt-get install -y postgresql\` creates the user) or set ${ENV_URL}.`,
    );
  }
  return ids;
}
