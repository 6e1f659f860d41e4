import assert from 'node:assert/strict';
import { requestAllowed, requestFilter } from '../../../electron/request-filter.ts';
import { test } from '../../helpers/node-test.ts';

const ORIGIN = 'http://127.0.0.1:4680';

test("the session loads only the app's origin (and data:, blob:, DevTools); every remote request is cancelled", () => {
  for (const url of [`${ORIGIN}/`, `${ORIGIN}/assets/index-abc.js`, `${ORIGIN}/api/events`, 'ws://127.0.0.1:4680/']) {
    assert.equal(requestAllowed(url, ORIGIN), true, url);
  }
  for (const url of ['data:image/png;base64,AA==', 'blob:http://127.0.0.1:4680/1-2', 'devtools://devtools/x']) {
    assert.equal(requestAllowed(url, ORIGIN), true, url);
  }
  for (const url of [
    'https://fonts.example.com/a.woff2',
    'http://127.0.0.1:4681/webhook/ep_1',
    'http://localhost:4680/',
    'wss://127.0.0.1:4680/',
    'file:///etc/passwd',
    'nonsense',
  ]) {
    assert.equal(requestAllowed(url, ORIGIN), false, url);
  }
  const answers: boolean[] = [];
  const filter = requestFilter(() => [ORIGIN]);
  filter({ url: 'https://cdn.example.com/x.js' }, (r) => answers.push(r.cancel));
  filter({ url: `${ORIGIN}/index.html` }, (r) => answers.push(r.cancel));
  assert.deepEqual(answers, [true, false]);
});

test('the filter follows the origins it is given at each request: a team server and the local engine, nothing else', () => {
  let origins = [ORIGIN];
  const filter = requestFilter(() => origins);
  const cancelled = (url: string): boolean => {
    let cancel: boolean | null = null;
    filter({ url }, (r) => (cancel = r.cancel));
    return cancel!;
  };
  assert.equal(cancelled('https://hooks.example.com/assets/index.js'), true);
  origins = ['https://hooks.example.com', ORIGIN];
  assert.equal(cancelled('https://hooks.example.com/assets/index.js'), false);
  assert.equal(cancelled('wss://hooks.example.com/'), false);
  assert.equal(cancelled(`${ORIGIN}/#/sign-in/abc`), false);
  assert.equal(cancelled('https://other.example.com/x.js'), true);
  assert.equal(cancelled('http://hooks.example.com/'), true);
});
