import assert from 'node:assert/strict';
import { describe, test } from '../../helpers/node-test.ts';
import fc from 'fast-check';
import { ValidationError } from '../../../server/errors/app-errors.ts';
import { forwardTarget } from '../../../server/replay/forwarder.ts';
import { joinSubPath, UnsafeSubPathError, type UnsafeSubPathReason } from '../../../server/replay/join-sub-path.ts';

const BASE = 'http://127.0.0.1:3000/local/hook';

const refused = (subPath: string): UnsafeSubPathError => {
  try {
    const url = joinSubPath(BASE, subPath);
    assert.fail(`${JSON.stringify(subPath)} was joined as ${url.href}`);
  } catch (e) {
    if (!(e instanceof UnsafeSubPathError)) throw e;
    return e;
  }
};

describe('joinSubPath: refused sub-paths', () => {
  const cases: [string, UnsafeSubPathReason][] = [
    ['/../../admin/delete-all', 'dot_segment'],
    ['/..', 'dot_segment'],
    ['/.', 'dot_segment'],
    ['/a/./b', 'dot_segment'],
    ['/a/../b', 'dot_segment'],
    ['/a/..', 'dot_segment'],
    ['/%2e%2e/admin', 'dot_segment'],
    ['/%2E%2E/admin', 'dot_segment'],
    ['/%2E%2e/admin', 'dot_segment'],
    ['/%2e%2E/admin', 'dot_segment'],
    ['/.%2e/admin', 'dot_segment'],
    ['/.%2E/admin', 'dot_segment'],
    ['/%2e./admin', 'dot_segment'],
    ['/%2E./admin', 'dot_segment'],
    ['/%2e/admin', 'dot_segment'],
    ['/x/%2e%2e', 'dot_segment'],
    // Double and triple encoding: a target (or a proxy and a target) decoding once more sees `..`.
    ['/%252e%252e/admin', 'dot_segment'],
    ['/%252E%252E/admin', 'dot_segment'],
    ['/.%252e/admin', 'dot_segment'],
    ['/%25252e%25252e/admin', 'dot_segment'],
    // An encoded slash that forms a dot segment once decoded.
    ['/..%2fadmin', 'dot_segment'],
    ['/..%2Fadmin', 'dot_segment'],
    ['/a%2f..%2fadmin', 'dot_segment'],
    ['/a%2F%2e%2e%2Fadmin', 'dot_segment'],
    ['/a%252f..%252fadmin', 'dot_segment'],
    // Tomcat-style path parameters and Windows trailing dots/spaces.
    ['/..;/admin', 'dot_segment'],
    ['/..;jsessionid=1/admin', 'dot_segment'],
    ['/.../admin', 'dot_segment'],
    ['/..%20/admin', 'dot_segment'],
    // Backslashes, plain and encoded.
    ['/..\\admin', 'backslash'],
    ['/a\\b', 'backslash'],
    ['/..%5cadmin', 'backslash'],
    ['/..%5Cadmin', 'backslash'],
    ['/%5c', 'backslash'],
    ['/..%255cadmin', 'backslash'],
    // Control characters and spaces, plain (URL parsers strip tabs and newlines) and encoded.
    ['/.\t./admin', 'control_character'],
    ['/a b', 'control_character'],
    ['/..%00/admin', 'control_character'],
    ['/a%0ab', 'control_character'],
    ['/a%7Fb', 'control_character'],
    ['/a%2500b', 'control_character'],
    // Overlong UTF-8 for `.` and `/`.
    ['/%c0%ae%c0%ae/admin', 'overlong_encoding'],
    ['/%C0%AF', 'overlong_encoding'],
    ['/%c1%9c', 'overlong_encoding'],
    // Still changing after four decodings.
    ['/%2525252541', 'nested_encoding'],
  ];
  for (const [subPath, reason] of cases) {
    test(`${JSON.stringify(subPath)} -> ${reason}`, () => {
      assert.equal(refused(subPath).reason, reason);
    });
  }

  test('the error is a typed 400 UNSAFE_SUB_PATH naming the path, the segment and the base path', () => {
    const e = refused('/orders/%2e%2e/admin');
    assert.ok(e instanceof ValidationError);
    assert.equal(e.status, 400);
    assert.equal(e.code, 'UNSAFE_SUB_PATH');
    assert.equal(e.subPath, '/orders/%2e%2e/admin');
    assert.equal(e.segment, '%2e%2e');
    assert.equal(e.basePath, '/local/hook');
    assert.deepEqual(e.details, {
      subPath: '/orders/%2e%2e/admin',
      reason: 'dot_segment',
      basePath: '/local/hook',
      segment: '%2e%2e',
    });
    assert.equal(
      e.message,
      'The sub-path "/orders/%2e%2e/admin" (segment "%2e%2e") cannot be appended below the path "/local/hook": it contains a dot segment ("." or ".."), plain or percent-encoded, that would lead out of it.',
    );
  });

  test('a long sub-path is shortened in the message, kept whole in details', () => {
    const long = `/${'a'.repeat(500)}/..`;
    const e = refused(long);
    assert.equal(e.message.includes('a'.repeat(201)), false);
    assert.equal((e.details as { subPath: string }).subPath, long);
  });

  test('forwardTarget refuses through the same function (the query is never appended)', () => {
    assert.throws(() => forwardTarget(BASE, '/../../admin/delete-all', { confirm: 'yes' }), UnsafeSubPathError);
  });
});

describe('joinSubPath: safe sub-paths', () => {
  const cases: [string, string, string][] = [
    [BASE, '/orders/42', 'http://127.0.0.1:3000/local/hook/orders/42'],
    [`${BASE}/`, '/orders/42', 'http://127.0.0.1:3000/local/hook/orders/42'],
    ['http://127.0.0.1:3000', '/orders/42', 'http://127.0.0.1:3000/orders/42'],
    ['http://127.0.0.1:3000/', '/x', 'http://127.0.0.1:3000/x'],
    [`${BASE}?token=t`, '/x', 'http://127.0.0.1:3000/local/hook/x?token=t'],
    [BASE, '/', BASE],
    [BASE, '', BASE],
    [`${BASE}/`, '/', `${BASE}/`],
    [BASE, 'no-slash', `${BASE}/no-slash`],
    // An encoded slash alone is data; `%25` stays literal; malformed escapes pass as they are.
    [BASE, '/a%2Fb', `${BASE}/a%2Fb`],
    [BASE, '/a%25b', `${BASE}/a%25b`],
    [BASE, '/100%', `${BASE}/100%`],
    [BASE, '/a%zz', `${BASE}/a%zz`],
    [BASE, '/a%20b', `${BASE}/a%20b`],
    // Dots inside names are not dot segments.
    [BASE, '/.well-known/x', `${BASE}/.well-known/x`],
    [BASE, '/a..b/..c/c../v1.2', `${BASE}/a..b/..c/c../v1.2`],
    [BASE, '/%2e%2ex/x%2e', `${BASE}/%2e%2ex/x%2e`],
    [BASE, '//double', `${BASE}//double`],
    [BASE, '/café', `${BASE}/caf%C3%A9`],
    // `?` and `#` in a sub-path are path characters here, never a query or a fragment.
    [BASE, '/a#b', `${BASE}/a%23b`],
  ];
  for (const [base, subPath, expected] of cases) {
    test(`${base} + ${JSON.stringify(subPath)} -> ${expected}`, () => {
      assert.equal(joinSubPath(base, subPath).href, expected);
    });
  }

  test('forwardTarget appends the query after the joined path', () => {
    assert.equal(forwardTarget(BASE, '/orders/42', { x: '1', y: ['a', 'b'] }).href, `${BASE}/orders/42?x=1&y=a&y=b`);
  });
});

/** Decodes %XX until nothing changes (independent of the implementation's bounded loop). */
function decodeFully(s: string): string {
  for (;;) {
    const next = s.replace(/%[0-9a-f]{2}/gi, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
    if (next === s) return s;
    s = next;
  }
}

describe('joinSubPath: property', () => {
  const fragments = fc.constantFrom(
    '/',
    '.',
    '..',
    '%2e',
    '%2E',
    '%25',
    '%2f',
    '%2F',
    '%5c',
    '%5C',
    '\\',
    ';',
    '%',
    '2',
    'e',
    'E',
    'f',
    '5',
    'c',
    'C',
    'a',
    'orders',
    '%00',
    '%c0',
    '%ae',
    'é',
    ' ',
    '?',
    '#',
    '%3f',
    '%23',
    '~',
  );
  const subPaths = fc.oneof(
    fc.array(fragments, { maxLength: 16 }).map((parts) => `/${parts.join('')}`),
    fc.string({ unit: 'binary-ascii', maxLength: 24 }).map((s) => `/${s}`),
    fc.string({ unit: 'grapheme', maxLength: 12 }).map((s) => `/${s}`),
  );
  const bases = fc.constantFrom(
    'http://127.0.0.1:3000/local/hook',
    'http://127.0.0.1:3000/local/hook/',
    'https://example.test/a/b?k=v',
    'http://127.0.0.1:3000',
  );

  test('a join either throws UnsafeSubPathError or stays below the base path with no dot segment at any decoding', () => {
    fc.assert(
      fc.property(bases, subPaths, (base, subPath) => {
        let url: URL;
        try {
          url = joinSubPath(base, subPath);
        } catch (e) {
          if (e instanceof UnsafeSubPathError) return;
          throw e;
        }
        const baseUrl = new URL(base);
        const prefix = baseUrl.pathname.replace(/\/$/, '');
        assert.equal(url.origin, baseUrl.origin);
        assert.equal(url.search, baseUrl.search);
        if (subPath === '/' || subPath === '') return;
        assert.ok(url.pathname.startsWith(`${prefix}/`), `${url.pathname} is not below ${prefix}`);
        const decoded = decodeFully(url.pathname);
        for (const piece of decoded.split(/[/\\]/))
          assert.ok(piece !== '.' && piece !== '..', `dot segment in ${url.pathname}`);
        // A target that decodes once and resolves the path (WHATWG) stays below the base path too.
        const once = url.pathname.replace(/%[0-9a-f]{2}/gi, (m) => String.fromCharCode(parseInt(m.slice(1), 16)));
        const resolved = new URL(`${baseUrl.origin}${once.replace(/[?#]/g, '_')}`).pathname;
        assert.ok(resolved.startsWith(`${prefix}/`), `decoded once, ${url.pathname} resolves to ${resolved}`);
      }),
      { numRuns: 3000 },
    );
  });
});
