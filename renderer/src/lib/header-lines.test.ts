import { describe, expect, test } from 'vitest';
import { formatHeaderLines, parseHeaderLines } from './header-lines.ts';

describe('header lines (the custom response headers box)', () => {
  test('one Name: value per line, in order and case, repeats kept, blank lines skipped, space around values dropped', () => {
    expect(parseHeaderLines('Retry-After: 120\r\n\n  Set-Cookie:a=1 \nSet-Cookie: b=2\nX-Empty:')).toEqual({
      ok: true,
      headers: [
        { name: 'Retry-After', value: '120' },
        { name: 'Set-Cookie', value: 'a=1' },
        { name: 'Set-Cookie', value: 'b=2' },
        { name: 'X-Empty', value: '' },
      ],
    });
  });

  test('a value keeps its own colons', () => {
    expect(parseHeaderLines('Location: http://localhost:3000/a')).toEqual({
      ok: true,
      headers: [{ name: 'Location', value: 'http://localhost:3000/a' }],
    });
  });

  test('nothing typed is no header', () => {
    expect(parseHeaderLines('')).toEqual({ ok: true, headers: [] });
    expect(parseHeaderLines('\n  \n')).toEqual({ ok: true, headers: [] });
  });

  test('the first line that is not a header is named by its number', () => {
    expect(parseHeaderLines('A: 1\nno colon here')).toEqual({
      ok: false,
      error: 'Headers, line 2: write it as "Name: value".',
    });
    expect(parseHeaderLines(': value')).toEqual({ ok: false, error: 'Headers, line 1: write it as "Name: value".' });
    expect(parseHeaderLines('A: 1\n\nBad Name: x')).toEqual({
      ok: false,
      error: 'Headers, line 3: "Bad Name" is not a valid header name.',
    });
  });

  test('formatting and parsing again gives the same headers', () => {
    const headers = [
      { name: 'Content-Type', value: 'text/plain' },
      { name: 'X-A', value: 'b: c' },
    ];
    expect(parseHeaderLines(formatHeaderLines(headers))).toEqual({ ok: true, headers });
  });
});
