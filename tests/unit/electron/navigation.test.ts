import assert from 'node:assert/strict';
import {
  isExternalWebUrl,
  navigationDecision,
  navigationGuard,
  windowOpenDecision,
  windowOpenHandler,
} from '../../../electron/navigation.ts';
import { describe, test } from '../../helpers/node-test.ts';

const ORIGIN = 'http://127.0.0.1:4680';

/** The guard's effects on one navigation: whether it was stopped, and what went to the browser. */
function navigate(url: string): { prevented: boolean; opened: string[] } {
  const opened: string[] = [];
  let prevented = false;
  navigationGuard({ origin: () => ORIGIN, openExternal: (u) => opened.push(u) })(
    { preventDefault: () => (prevented = true) },
    url,
  );
  return { prevented, opened };
}

describe('the external-link filter', () => {
  test('only http and https go to the system browser', () => {
    assert.equal(isExternalWebUrl('https://docs.stripe.com/webhooks'), true);
    assert.equal(isExternalWebUrl('http://example.com/'), true);
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'mailto:a@b.c', 'not a url']) {
      assert.equal(isExternalWebUrl(url), false, url);
    }
  });
});

describe('navigation of the window (will-navigate, will-redirect)', () => {
  test("the UI's own routes (its one page and its hash routes) stay in the window", () => {
    for (const url of [`${ORIGIN}/`, `${ORIGIN}/#/metrics`, `${ORIGIN}/#/logs/log_1`, `${ORIGIN}/#/sign-in/abc`]) {
      assert.equal(navigationDecision(url, ORIGIN), 'allow', url);
      assert.deepEqual(navigate(url), { prevented: false, opened: [] }, url);
    }
  });

  test("the app origin's receiver, share and API paths are refused and opened nowhere", () => {
    for (const url of [
      `${ORIGIN}/webhook/ep_1`,
      `${ORIGIN}/webhook/ep_1/deep/path?x=1#/logs`,
      `${ORIGIN}/share/abcdef`,
      `${ORIGIN}/api/openapi.json`,
      `${ORIGIN}/healthz`,
      `${ORIGIN}/index.html`,
      // However spelt: the path is not the UI's, whatever it decodes or normalises to.
      `${ORIGIN}/%77ebhook/ep_1`,
      `${ORIGIN}/./webhook/ep_1`,
      `${ORIGIN}/x/../webhook/ep_1`,
      `${ORIGIN}//webhook/ep_1`,
      `${ORIGIN.replace('http', 'HTTP')}/WEBHOOK/ep_1`,
    ]) {
      assert.equal(navigationDecision(url, ORIGIN), 'deny', url);
      assert.deepEqual(navigate(url), { prevented: true, opened: [] }, url);
    }
  });

  test('another origin is refused, and a web link opens in the system browser', () => {
    assert.deepEqual(navigate('https://example.com/page'), { prevented: true, opened: ['https://example.com/page'] });
    // Same host, another port: another origin (the receiver listener, another local app).
    assert.deepEqual(navigate('http://127.0.0.1:4681/webhook/ep_1'), {
      prevented: true,
      opened: ['http://127.0.0.1:4681/webhook/ep_1'],
    });
    assert.equal(navigationDecision('http://localhost:4680/', ORIGIN), 'external');
  });

  test('a non-web URL is refused and goes nowhere', () => {
    assert.deepEqual(navigate('file:///etc/passwd'), { prevented: true, opened: [] });
    assert.deepEqual(navigate('javascript:alert(1)'), { prevented: true, opened: [] });
    assert.equal(navigationDecision('::', ORIGIN), 'deny');
  });
});

describe('a switch of the engine shown', () => {
  test("the guard and window.open follow the app's origin at each call: the team server's routes stay, the old origin's do not", () => {
    let origin = ORIGIN;
    const opened: string[] = [];
    const deps = { origin: () => origin, openExternal: (u: string) => opened.push(u) };
    const prevented = (url: string): boolean => {
      let stopped = false;
      navigationGuard(deps)({ preventDefault: () => (stopped = true) }, url);
      return stopped;
    };
    assert.equal(prevented('https://hooks.example.com/#/metrics'), true);
    origin = 'https://hooks.example.com';
    assert.equal(prevented('https://hooks.example.com/#/metrics'), false);
    assert.equal(prevented('https://hooks.example.com/api/openapi.json'), true);
    assert.equal(prevented(`${ORIGIN}/#/metrics`), true);
    assert.deepEqual(windowOpenHandler(deps)({ url: 'https://hooks.example.com/share/x' }), { action: 'deny' });
    assert.deepEqual(opened, ['https://hooks.example.com/#/metrics', `${ORIGIN}/#/metrics`]);
  });
});

describe('window.open', () => {
  test("never makes a window; web links to other origins open in the browser, the app's origin and others nowhere", () => {
    const opened: string[] = [];
    const handler = windowOpenHandler({ origin: () => ORIGIN, openExternal: (u) => opened.push(u) });
    assert.deepEqual(handler({ url: 'https://example.com/x' }), { action: 'deny' });
    assert.deepEqual(handler({ url: 'http://127.0.0.1:4681/share/abc' }), { action: 'deny' });
    assert.deepEqual(handler({ url: `${ORIGIN}/share/abc` }), { action: 'deny' });
    assert.deepEqual(handler({ url: `${ORIGIN}/webhook/ep_1` }), { action: 'deny' });
    assert.deepEqual(handler({ url: `${ORIGIN}/#/metrics` }), { action: 'deny' });
    assert.deepEqual(handler({ url: 'file:///tmp/x.html' }), { action: 'deny' });
    assert.deepEqual(opened, ['https://example.com/x', 'http://127.0.0.1:4681/share/abc']);
    assert.equal(windowOpenDecision('chrome://settings', ORIGIN), 'deny');
    assert.equal(windowOpenDecision('not a url', ORIGIN), 'deny');
  });
});
