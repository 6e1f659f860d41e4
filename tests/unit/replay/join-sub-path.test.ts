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
    // Longer overlong forms of `.` (3, 4, 5 and 6 bytes), any case, and one put together across two decodings.
    ['/%e0%80%ae%e0%80%ae/admin', 'overlong_encoding'],
    ['/%E0%80%AE', 'overlong_encoding'],
    ['/%e0%80%af', 'overlong_encoding'],
    ['/%f0%80%80%ae', 'overlong_encoding'],
    ['/%f8%80%80%80%ae', 'overlong_encoding'],
    ['/%fc%80%80%80%80%ae', 'overlong_encoding'],
    ['/%25e0%2580%25ae', 'overlong_encoding'],
    ['/%e0%2580%25ae', 'overlong_encoding'],
    // %u escapes (IIS), any case, alone, mixed with dots and under a percent-encoding.
    ['/%u002e%u002e/admin', 'dot_segment'],
    ['/%U002E%U002E/admin', 'dot_segment'],
    ['/%u002e./admin', 'dot_segment'],
    ['/.%u002E', 'dot_segment'],
    ['/%25u002e%25u002e/admin', 'dot_segment'],
    ['/..%u002fadmin', 'dot_segment'],
    ['/%uff0e%uff0e/admin', 'dot_segment'],
    ['/..%u005cadmin', 'backslash'],
    ['/a%u0000b', 'control_character'],
    // Characters NFKC turns into `.`, `/` or `\`: literal, percent-encoded as UTF-8, twice-encoded.
    ['/\uff0e\uff0e/admin', 'dot_segment'],
    ['/%ef%bc%8e%ef%bc%8e/admin', 'dot_segment'],
    ['/%EF%BC%8E./admin', 'dot_segment'],
    ['/%25ef%25bc%258e%25ef%25bc%258e/admin', 'dot_segment'],
    ['/\u2025/admin', 'dot_segment'],
    ['/%e2%80%a5/admin', 'dot_segment'],
    ['/\u2024\u2024/admin', 'dot_segment'],
    ['/\ufe52\ufe52/admin', 'dot_segment'],
    ['/\u2026/admin', 'dot_segment'],
    ['/a\uff0f..\uff0fadmin', 'dot_segment'],
    ['/..%ef%bc%8fadmin', 'dot_segment'],
    ['/\uff3cadmin', 'backslash'],
    ['/..%ef%bc%bcadmin', 'backslash'],
    ['/\ufe68', 'backslash'],
    // A fullwidth percent sign becomes `%` under NFKC, and what it then encodes is a dot segment.
    ['/\uff05\uff12\uff45\uff05\uff12\uff45/admin', 'dot_segment'],
    ['/%ef%bc%852e%ef%bc%852e/admin', 'dot_segment'],
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
      'The sub-path "/orders/%2e%2e/admin" (segment "%2e%2e") cannot be appended below the path "/local/hook": it contains a dot segment ("." or ".."), plain, percent-encoded, %u-escaped or in look-alike characters that normalise (NFKC) to dots, that would lead out of it.',
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
    // Valid UTF-8 (E0 and F0 with their proper second bytes), a Latin-1 byte, a %u escape of a letter,
    // and look-alike letters that NFKC turns into plain ones: none is a dot, a slash or a backslash.
    [BASE, '/%e0%a4%85', `${BASE}/%e0%a4%85`],
    [BASE, '/%f0%9f%98%80', `${BASE}/%f0%9f%98%80`],
    [BASE, '/M%FCnchen', `${BASE}/M%FCnchen`],
    [BASE, '/%u0041', `${BASE}/%u0041`],
    [BASE, '/\uff4f\uff52\uff44\uff45\uff52\uff53', `${BASE}/%EF%BD%8F%EF%BD%92%EF%BD%84%EF%BD%85%EF%BD%92%EF%BD%93`],
    [BASE, '/v1\uff0e2', `${BASE}/v1%EF%BC%8E2`],
    [BASE, '/a\uff0fb', `${BASE}/a%EF%BC%8Fb`],
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

// ---- Decoders written apart from the implementation, the ways servers and proxies decode a path.
// A path is handled as bytes (a string of one char per byte); `asText` reads them as UTF-8.

/** `%XX` as one byte. */
const percentBytes = (b: string): string =>
  b.replace(/%([0-9a-f]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
/** `%uXXXX` as the UTF-8 bytes of that UTF-16 code unit (IIS). */
const percentU = (b: string): string =>
  b.replace(/%u([0-9a-f]{4})/gi, (_m, hex: string) =>
    Buffer.from(String.fromCharCode(parseInt(hex, 16)), 'utf8').toString('latin1'),
  );
/** NFKC of the UTF-8 text (normalising frameworks and proxies). */
const nfkc = (b: string): string => Buffer.from(asText(b).normalize('NFKC'), 'utf8').toString('latin1');

/**
 * UTF-8 as an old, lax decoder reads it: any lead byte with its continuation
 * bytes, overlong forms (`C0 AE`, `E0 80 AE`, ... up to 6 bytes) included.
 */
function asText(b: string): string {
  let out = '';
  for (let i = 0; i < b.length;) {
    const c = b.charCodeAt(i);
    const n = c < 0x80 ? 0 : c >= 0xfc ? 5 : c >= 0xf8 ? 4 : c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : c >= 0xc0 ? 1 : -1;
    let cp = n <= 0 ? c : c & (0x3f >> n);
    let ok = n >= 0 && i + n < b.length;
    for (let k = 1; ok && k <= n; k++) {
      const cc = b.charCodeAt(i + k);
      if ((cc & 0xc0) !== 0x80) ok = false;
      else cp = cp * 64 + (cc & 0x3f);
    }
    out += n === 0 ? String.fromCharCode(c) : ok && cp <= 0x10ffff ? String.fromCodePoint(cp) : '\ufffd';
    i += ok ? n + 1 : 1;
  }
  return out;
}

const DECODERS = { percentBytes, percentU, nfkc };
type DecoderName = keyof typeof DECODERS;
/** Every sequence of one to three decodings: once, twice, %u then percent, NFKC then percent, ... */
const SEQUENCES: DecoderName[][] = (() => {
  const names = Object.keys(DECODERS) as DecoderName[];
  let level: DecoderName[][] = [[]];
  const all: DecoderName[][] = [];
  for (let i = 0; i < 3; i++) {
    level = level.flatMap((seq) => names.map((n) => [...seq, n]));
    all.push(...level);
  }
  return all;
})();

describe('joinSubPath: property over the ways servers decode (percent once and twice, %u, NFKC, lax UTF-8)', () => {
  const fragments = fc.constantFrom(
    '/',
    '.',
    '..',
    'a',
    'v1',
    '%',
    '%25',
    '%2e',
    '%2E',
    '%2f',
    '%5c',
    '%u',
    '%U',
    '00',
    '2e',
    '2f',
    '5c',
    'ff0e',
    '%u002e',
    '%u002f',
    '%uff0e',
    '%c0',
    '%ae',
    '%af',
    '%e0',
    '%80',
    '%f0',
    '%f8',
    '%fc',
    '%c0%ae',
    '%e0%80%ae',
    '%e0%80',
    '%2580',
    '%f0%80%80%ae',
    '%f8%80%80%80%ae',
    '%fc%80%80%80%80%ae',
    '%ef%bc%8e',
    '%ef%bc%8f',
    '%e2%80%a5',
    '\uff0e',
    '\u2024',
    '\u2025',
    '\u2026',
    '\ufe52',
    '\uff0f',
    '\uff3c',
    '\uff05',
    '\uff12',
    '\uff45',
    '\uff052e',
    '%ef%bc%852e',
    '\u00e9',
    ';',
  );
  const subPaths = fc.array(fragments, { minLength: 1, maxLength: 14 }).map((parts) => `/${parts.join('')}`);
  const bases = fc.constantFrom(
    'http://127.0.0.1:3000/local/hook',
    'https://example.test/a/b/',
    'http://127.0.0.1:3000',
  );

  test('an accepted sub-path has no dot segment and stays below the base path, however it is decoded', () => {
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
        assert.ok(url.pathname.startsWith(`${prefix}/`), `${url.pathname} is not below ${prefix}`);
        // What the target receives: the serialised path (ASCII), as bytes.
        const sent = url.pathname.slice(prefix.length);
        for (const seq of SEQUENCES) {
          const text = asText(seq.reduce((b, name) => DECODERS[name](b), sent));
          for (const piece of text.split(/[/\\]/)) {
            assert.ok(piece !== '.' && piece !== '..', `${seq.join(' + ')} of ${sent} gives ${text}`);
          }
          // A target that resolves what it decoded as a WHATWG URL path stays below the base path too.
          const resolved = new URL(`${baseUrl.origin}${prefix}${text.replace(/[?#]/g, '_')}`).pathname;
          assert.ok(resolved.startsWith(`${prefix}/`), `${seq.join(' + ')} of ${sent} resolves to ${resolved}`);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
