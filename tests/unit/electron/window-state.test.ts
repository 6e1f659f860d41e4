import assert from 'node:assert/strict';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  DEFAULT_SIZE,
  WINDOW_STATE_FILE,
  parseWindowState,
  placeWindow,
  readWindowState,
  writeWindowState,
  type Rect,
} from '../../../electron/window-state.ts';
import { describe, test } from '../../helpers/node-test.ts';
import { tempDirs } from '../../helpers/temp-dir.ts';

const newDir = tempDirs('hookscope-window-state-');
const LAPTOP: Rect = { x: 0, y: 0, width: 1440, height: 875 };
const RIGHT_MONITOR: Rect = { x: 1440, y: 0, width: 2560, height: 1410 };

describe('the remembered window state', () => {
  test('parsing takes a well-formed state and refuses anything else', () => {
    const good = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true };
    assert.deepEqual(parseWindowState(good), good);
    for (const bad of [
      null,
      'x',
      [],
      { bounds: good.bounds },
      { bounds: { ...good.bounds, width: 0 }, maximized: false },
      { bounds: { ...good.bounds, height: -5 }, maximized: false },
      { bounds: { ...good.bounds, x: 1.5 }, maximized: false },
      { bounds: { ...good.bounds, y: '20' }, maximized: false },
      { bounds: null, maximized: false },
      { bounds: good.bounds, maximized: 'yes' },
    ]) {
      assert.equal(parseWindowState(bad), null, JSON.stringify(bad));
    }
  });

  test('no state: the default size, centred on the primary display (no position), or the display when smaller', () => {
    assert.deepEqual(placeWindow(null, [LAPTOP]), { width: 1280, height: 820, maximized: false });
    assert.deepEqual(placeWindow(null, [{ x: 0, y: 0, width: 1024, height: 600 }]), {
      width: 1024,
      height: 600,
      maximized: false,
    });
    assert.deepEqual(placeWindow(null, []), { ...DEFAULT_SIZE, maximized: false });
  });

  test('a position still on a display is kept, on the second monitor too', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 800 }, maximized: false };
    assert.deepEqual(placeWindow(saved, [LAPTOP, RIGHT_MONITOR]), {
      x: 1600,
      y: 100,
      width: 1200,
      height: 800,
      maximized: false,
    });
  });

  test('the monitor it was on is gone: centred on the primary display, size clamped to it, maximized kept', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 2000, height: 1200 }, maximized: true };
    assert.deepEqual(placeWindow(saved, [LAPTOP]), { width: 1440, height: 875, maximized: true });
  });

  test('a window hanging off a display edge is pulled inside it, and shrunk to fit', () => {
    const offRight = { bounds: { x: 1200, y: 500, width: 1000, height: 600 }, maximized: false };
    assert.deepEqual(placeWindow(offRight, [LAPTOP]), { x: 440, y: 275, width: 1000, height: 600, maximized: false });
    const tooBig = { bounds: { x: 100, y: 50, width: 3000, height: 2000 }, maximized: false };
    assert.deepEqual(placeWindow(tooBig, [LAPTOP]), { x: 0, y: 0, width: 1440, height: 875, maximized: false });
  });

  test('only a sliver of the title bar on screen does not count as visible', () => {
    // 100 px of the window's top strip on the laptop: less than the 120 px grip.
    const sliver = { bounds: { x: -900, y: 200, width: 1000, height: 600 }, maximized: false };
    assert.deepEqual(placeWindow(sliver, [LAPTOP]), { width: 1000, height: 600, maximized: false });
    // Its title bar above the top of every display: not visible either.
    const above = { bounds: { x: 100, y: -700, width: 1000, height: 600 }, maximized: false };
    assert.deepEqual(placeWindow(above, [LAPTOP]), { width: 1000, height: 600, maximized: false });
  });

  test('a size below the minimum is raised to it', () => {
    const tiny = { bounds: { x: 10, y: 10, width: 200, height: 100 }, maximized: false };
    assert.deepEqual(placeWindow(tiny, [LAPTOP]), { x: 10, y: 10, width: 720, height: 480, maximized: false });
  });

  test('written 0600 and read back; a missing, torn or foreign file reads as none', async () => {
    const dir = await newDir();
    assert.equal(await readWindowState(dir), null);
    const state = { bounds: { x: 5, y: 6, width: 900, height: 700 }, maximized: false };
    await writeWindowState(dir, state);
    assert.deepEqual(await readWindowState(dir), state);
    if (process.platform !== 'win32') assert.equal((await stat(join(dir, WINDOW_STATE_FILE))).mode & 0o777, 0o600);
    assert.equal(await readFile(join(dir, WINDOW_STATE_FILE), 'utf8'), `${JSON.stringify(state, null, 2)}\n`);
    await writeFile(join(dir, WINDOW_STATE_FILE), '{"bounds":{"x":1,');
    assert.equal(await readWindowState(dir), null);
    await writeFile(join(dir, WINDOW_STATE_FILE), '{"width":900}');
    assert.equal(await readWindowState(dir), null);
  });
});
