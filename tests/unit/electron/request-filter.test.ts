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
  const filter = requestFilter(ORIGIN);
  filter({ url: 'https://cdn.example.com/x.js' }, (r) => answers.push(r.cancel));
  filter({ url: `${ORIGIN}/index.html` }, (r) => answers.push(r.cancel));
  assert.deepEqual(answers, [true, false]);
});
