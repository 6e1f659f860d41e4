import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { launchElectron } from '../../server/cli/commands/start.ts';
import { BIN } from '../helpers/cli-process.ts';
import { describe, test } from '../helpers/node-test.ts';
import { tempDirs } from '../helpers/temp-dir.ts';

const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
const newDir = tempDirs('hookscope-cli-start-');

describe('hookscope start (npm start)', () => {
  test("without Electron's binary: one line saying why, then the headless engine with its sign-in link", async () => {
    const dataDir = await newDir();
    // An empty folder as Electron's dist: the binary is missing, on any machine.
    const noBinary = await newDir();
    const child = spawn(
      process.execPath,
      [BIN, 'start', '--data-dir', dataDir, '--api-port', '0', '--receiver-port', '0'],
      { env: { ...process.env, NO_COLOR: '1', ELECTRON_OVERRIDE_DIST_PATH: noBinary, HOOKSCOPE_HEADLESS: '' } },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      while (!out.includes('Press Ctrl+C to stop.')) {
        if (child.exitCode !== null) throw new Error(`start exited early: ${out}`);
        await new Promise((r) => setTimeout(r, 25));
      }
      const lines = out.split('\n');
      assert.equal(
        lines[0],
        "Electron cannot start (Electron's binary is not downloaded; `npx install-electron` downloads it); " +
          'running the engine headless instead.',
      );
      assert.match(lines[1]!, /^Hookscope \S+ engine running$/);
      assert.match(lines[2]!, /^ {2}Open {7}http:\/\/127\.0\.0\.1:\d+\/#\/sign-in\/\S+$/);
      child.kill('SIGINT');
      assert.equal(await exited, 0, out);
    } finally {
      child.kill('SIGKILL');
    }
  });

  test("with a binary: Electron runs on the package folder with start's flags as variables; its exit code is start's", async () => {
    const dir = await newDir();
    const record = join(dir, 'args.txt');
    // A stand-in for Electron's executable: writes what it was given, exits 3.
    const fake = join(dir, 'electron');
    await writeFile(
      fake,
      `#!/bin/sh\nprintf '%s\\n' "$@" "$HOOKSCOPE_DATA_DIR" "$HOOKSCOPE_API_PORT" "\${ELECTRON_RUN_AS_NODE:-unset}" > ${JSON.stringify(record)}\nexit 3\n`,
    );
    await chmod(fake, 0o755);
    const said: string[] = [];
    const io = {
      out: (l: string) => said.push(l),
      err: (l: string) => said.push(l),
      env: { ELECTRON_RUN_AS_NODE: '1' },
    };
    assert.equal(await launchElectron(fake, { dataDir: join(dir, 'data'), apiPort: 0 }, io), 3);
    assert.deepEqual((await readFile(record, 'utf8')).split('\n'), [ROOT, join(dir, 'data'), '0', 'unset', '']);
    assert.deepEqual(said, []);
    // A binary that cannot be executed at all: null, so start falls back to serve.
    assert.equal(await launchElectron(join(dir, 'missing'), {}, io), null);
    assert.match(said[0]!, /^Electron cannot start \(spawn .*missing ENOENT\); running the engine headless instead\.$/);
  });
});
