import assert from 'node:assert/strict';
import { closeAction, gracefulQuit, revealWindow } from '../../../electron/graceful-quit.ts';
import { describe, test } from '../../helpers/node-test.ts';

/** A before-quit event that records whether the quit was held. */
const quitEvent = () => {
  const e = { held: false, preventDefault: () => (e.held = true) };
  return e;
};

describe('graceful quit', () => {
  test('the first quit is held until the engine has stopped, then the app quits once; later quits pass', async () => {
    const steps: string[] = [];
    let finishStop: () => void = () => undefined;
    const handler = gracefulQuit({
      stop: () => {
        steps.push('stop');
        return new Promise<void>((r) => (finishStop = r));
      },
      quit: () => steps.push('quit'),
      onError: (e) => steps.push(`error ${String(e)}`),
    });
    const first = quitEvent();
    handler(first);
    assert.equal(first.held, true);
    const meanwhile = quitEvent();
    handler(meanwhile);
    assert.equal(meanwhile.held, true, 'a second Quit while stopping waits for the same stop');
    assert.deepEqual(steps, ['stop']);
    finishStop();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(steps, ['stop', 'quit']);
    const after = quitEvent();
    handler(after);
    assert.equal(after.held, false, 'the quit that follows the stop goes through');
    assert.deepEqual(steps, ['stop', 'quit']);
  });

  test('a stop that fails is reported and the app still quits', async () => {
    const steps: string[] = [];
    const handler = gracefulQuit({
      stop: () => Promise.reject(new Error('disk full')),
      quit: () => steps.push('quit'),
      onError: (e) => steps.push(`error ${(e as Error).message}`),
    });
    handler(quitEvent());
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(steps, ['error disk full', 'quit']);
  });
});

describe('closing and revealing the window', () => {
  test('closing hides it while a tray (or the macOS Dock) can bring it back; otherwise, or when quitting, it closes', () => {
    assert.equal(closeAction({ quitting: false, hasTray: true, platform: 'linux' }), 'hide');
    assert.equal(closeAction({ quitting: false, hasTray: false, platform: 'darwin' }), 'hide');
    assert.equal(closeAction({ quitting: false, hasTray: false, platform: 'linux' }), 'close');
    assert.equal(closeAction({ quitting: false, hasTray: false, platform: 'win32' }), 'close');
    assert.equal(closeAction({ quitting: true, hasTray: true, platform: 'darwin' }), 'close');
  });

  test('reveal restores a minimized window, shows and focuses it', () => {
    const calls: string[] = [];
    const win = (minimized: boolean) => ({
      isMinimized: () => minimized,
      restore: () => calls.push('restore'),
      show: () => calls.push('show'),
      focus: () => calls.push('focus'),
    });
    revealWindow(win(true));
    revealWindow(win(false));
    assert.deepEqual(calls, ['restore', 'show', 'focus', 'show', 'focus']);
  });
});
