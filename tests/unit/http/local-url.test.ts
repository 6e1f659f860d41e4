import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { localUrl } from '../../../server/http/listeners.ts';
import { apiHostCheck } from '../../../server/http/host-check.ts';

test('a listener on every interface is named by loopback, which the Host check accepts', () => {
  assert.equal(localUrl('0.0.0.0', 4680), 'http://127.0.0.1:4680');
  assert.equal(localUrl('::', 4680), 'http://[::1]:4680');
  assert.equal(localUrl('127.0.0.1', 4681), 'http://127.0.0.1:4681');
  assert.equal(localUrl('::1', 4681), 'http://[::1]:4681');
  assert.equal(localUrl('10.0.0.5', 4680), 'http://10.0.0.5:4680');
  // What the CLI sends as Host for runtime.json's apiUrl must pass the check.
  const allowed = apiHostCheck('https://hooks.example.com');
  for (const host of ['0.0.0.0', '::']) assert.equal(allowed(new URL(localUrl(host, 4680)).host), true, host);
});
