import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import { clientAddress, parseTrustProxy, trustedProxies } from '../../../server/http/client-address.ts';

const PROXIES = trustedProxies(parseTrustProxy('127.0.0.1,10.0.0.0/8,fd00::/8'));

/** The client address of a request from `socket` carrying X-Forwarded-For `xff` (absent when undefined). */
const from = (socket: string | undefined, xff?: string | string[], proxies = PROXIES) =>
  clientAddress({ socket: { remoteAddress: socket }, headers: { 'x-forwarded-for': xff } }, proxies);

describe('clientAddress: the socket, or X-Forwarded-For walked from the right past trusted proxies', () => {
  test('an untrusted socket is the client whatever the header says', () => {
    assert.equal(from('203.0.113.9', '198.51.100.1'), '203.0.113.9');
    assert.equal(from('203.0.113.9'), '203.0.113.9');
  });

  test('no proxies trusted (the default): always the socket', () => {
    const none = trustedProxies([]);
    assert.equal(from('127.0.0.1', '198.51.100.1', none), '127.0.0.1');
    assert.equal(from('::ffff:10.1.2.3', '198.51.100.1', none), '10.1.2.3');
  });

  test('a trusted proxy with no header: the proxy itself', () => {
    assert.equal(from('127.0.0.1'), '127.0.0.1');
  });

  test('one hop: the entry the proxy added', () => {
    assert.equal(from('127.0.0.1', '198.51.100.1'), '198.51.100.1');
  });

  test('several hops: trusted entries on the right are skipped, the first untrusted one is the client', () => {
    // The client's own (spoofable) claim 192.0.2.66 is left of the first untrusted hop: never reached.
    assert.equal(from('127.0.0.1', '192.0.2.66, 198.51.100.1, 10.0.0.7, 10.200.0.1'), '198.51.100.1');
    // Repeated headers, as an array.
    assert.equal(from('127.0.0.1', ['192.0.2.66, 198.51.100.1', '10.0.0.7']), '198.51.100.1');
  });

  test('every entry trusted: the leftmost', () => {
    assert.equal(from('127.0.0.1', '10.0.0.3, 10.0.0.2'), '10.0.0.3');
  });

  test('a malformed entry ends the walk at the last good address', () => {
    assert.equal(from('127.0.0.1', '198.51.100.1, not-an-ip'), '127.0.0.1');
    assert.equal(from('127.0.0.1', '198.51.100.1, garbage, 10.0.0.7'), '10.0.0.7');
    assert.equal(from('127.0.0.1', '198.51.100.1:4444'), '127.0.0.1');
    assert.equal(from('127.0.0.1', ''), '127.0.0.1');
    assert.equal(from('127.0.0.1', '192.0.2.1,,10.0.0.7'), '10.0.0.7');
  });

  test('IPv6: trusted ranges, IPv6 clients, IPv4-mapped addresses come back as IPv4', () => {
    assert.equal(from('fd12::1', '2001:db8::5'), '2001:db8::5');
    assert.equal(from('fd12::1', '2001:db8::5, fd00::2'), '2001:db8::5');
    assert.equal(from('2001:db8::9', '198.51.100.1'), '2001:db8::9');
    // A dual-stack listener sees 127.0.0.1 mapped: still the trusted proxy.
    assert.equal(from('::ffff:127.0.0.1', '::ffff:198.51.100.1'), '198.51.100.1');
    assert.equal(from('::ffff:127.0.0.1', '::ffff:10.0.0.4'), '10.0.0.4');
  });

  test('a closed socket has no address', () => {
    assert.equal(from(undefined, '198.51.100.1'), null);
  });
});

describe('parseTrustProxy: addresses and CIDR ranges', () => {
  test('entries are trimmed and kept in order', () => {
    assert.deepEqual(parseTrustProxy(' 127.0.0.1 , 10.0.0.0/8,::1,fd00::/8 '), [
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
  });

  test('a bad entry is named', () => {
    const rule = 'must be a comma-separated list of IP addresses or CIDR ranges, such as 127.0.0.1,10.0.0.0/8';
    for (const [value, entry] of [
      ['localhost', 'localhost'],
      ['10.0.0.0/33', '10.0.0.0/33'],
      ['fd00::/129', 'fd00::/129'],
      ['10.0.0.0/8/8', '10.0.0.0/8/8'],
      ['10.0.0.0/', '10.0.0.0/'],
      ['10.0.0.0/-1', '10.0.0.0/-1'],
      ['127.0.0.1,', ''],
      ['', ''],
    ] as const) {
      assert.throws(() => parseTrustProxy(value), { message: `${rule} (got "${entry}" in "${value}").` }, value);
    }
  });
});
