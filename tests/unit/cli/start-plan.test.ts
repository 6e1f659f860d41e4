import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { electronEnv, probeElectron, startPlan, type StartSituation } from '../../../server/cli/commands/start.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const newDir = tempDirs('hookscope-start-');

const ready: StartSituation = {
  installed: true,
  binary: '/app/node_modules/electron/dist/electron',
  shellBuilt: true,
  env: { DISPLAY: ':0' },
  platform: 'linux',
  root: false,
};

describe('npm start: the desktop app, or why not', () => {
  test('everything there: Electron with its binary', () => {
    assert.deepEqual(startPlan(ready), { kind: 'electron', binary: ready.binary });
    assert.deepEqual(startPlan({ ...ready, env: { WAYLAND_DISPLAY: 'wayland-0' } }).kind, 'electron');
    // macOS and Windows always have a display; root matters only to Chromium's Linux sandbox.
    assert.deepEqual(startPlan({ ...ready, env: {}, platform: 'darwin', root: true }).kind, 'electron');
    assert.deepEqual(startPlan({ ...ready, env: {}, platform: 'win32' }).kind, 'electron');
  });

  test('each missing piece is one reason, the first that applies, saying how to fix it', () => {
    const reason = (s: Partial<StartSituation>): string | null => {
      const plan = startPlan({ ...ready, ...s });
      return plan.kind === 'headless' ? plan.reason : null;
    };
    assert.equal(reason({ env: { DISPLAY: ':0', HOOKSCOPE_HEADLESS: '1' } }), 'HOOKSCOPE_HEADLESS=1 is set');
    assert.equal(
      reason({ installed: false, binary: null }),
      'the electron package is not installed; `npm install` installs it',
    );
    assert.equal(reason({ binary: null }), "Electron's binary is not downloaded; `npx install-electron` downloads it");
    assert.equal(reason({ shellBuilt: false }), 'the desktop shell is not built; `npm run build` builds it');
    assert.equal(reason({ env: {} }), 'there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set');
    assert.equal(reason({ env: { DISPLAY: '' } }), 'there is no display: neither DISPLAY nor WAYLAND_DISPLAY is set');
    assert.equal(reason({ root: true }), "Electron's sandbox does not run as root");
    assert.equal(
      reason({ binary: null, env: {} }),
      "Electron's binary is not downloaded; `npx install-electron` downloads it",
    );
  });
});

describe("finding Electron's binary without loading the package (which would download it)", () => {
  test('no package, no path.txt, a path.txt whose file is missing, then the binary', async () => {
    const pkg = await newDir();
    const main = join(pkg, 'main.js');
    assert.deepEqual(probeElectron({}, null, main), { installed: false, binary: null, shellBuilt: false });
    await writeFile(main, '');
    assert.deepEqual(probeElectron({}, pkg, main), { installed: true, binary: null, shellBuilt: true });
    await writeFile(join(pkg, 'path.txt'), 'electron');
    assert.deepEqual(probeElectron({}, pkg, main), { installed: true, binary: null, shellBuilt: true });
    await mkdir(join(pkg, 'dist'));
    await writeFile(join(pkg, 'dist', 'electron'), '');
    assert.deepEqual(probeElectron({}, pkg, main), {
      installed: true,
      binary: join(pkg, 'dist', 'electron'),
      shellBuilt: true,
    });
  });

  test('ELECTRON_OVERRIDE_DIST_PATH names the folder, as the package itself reads it', async () => {
    const pkg = await newDir();
    const dist = await newDir();
    assert.equal(probeElectron({ ELECTRON_OVERRIDE_DIST_PATH: dist }, pkg, 'none').binary, null);
    await writeFile(join(dist, 'electron'), '');
    assert.equal(probeElectron({ ELECTRON_OVERRIDE_DIST_PATH: dist }, pkg, 'none').binary, join(dist, 'electron'));
  });

  test('here: the package is installed (a dev dependency) and the probe never loads it', () => {
    const probe = probeElectron({});
    assert.equal(probe.installed, true);
    assert.equal(
      Object.keys(createRequire(import.meta.url).cache).some((k) => k.includes('/node_modules/electron/index.js')),
      false,
    );
  });
});

describe("the desktop app's environment", () => {
  test("start's flags become the variables the main process resolves its engine from", () => {
    assert.deepEqual(
      electronEnv({ dataDir: 'data', apiPort: 0, receiverPort: 5001 }, { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' }),
      { PATH: '/bin', HOOKSCOPE_DATA_DIR: resolve('data'), HOOKSCOPE_API_PORT: '0', HOOKSCOPE_RECEIVER_PORT: '5001' },
    );
    assert.deepEqual(electronEnv({}, { HOOKSCOPE_DATA_DIR: '/d' }), { HOOKSCOPE_DATA_DIR: '/d' });
  });
});
