import { describe, expect, test } from 'vitest';
import { formatHeaderLines, headerValueText, parseHeaderLines } from './header-lines.ts';

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

describe('received header values as text', () => {
  // What Node hands over for a header sent as UTF-8 bytes: one latin1 character per byte.
  const asNodeGivesIt = (text: string): string => String.fromCharCode(...new TextEncoder().encode(text));

  test('bytes that are valid UTF-8 read as UTF-8; the text encodes back to the same bytes', () => {
    const received = asNodeGivesIt('Zoë Müller ✓ 日本');
    expect(received).toBe('ZoÃ« MÃ¼ller â\u009c\u0093 æ\u0097¥æ\u009c¬');
    expect(headerValueText(received)).toBe('Zoë Müller ✓ 日本');
    expect(String.fromCharCode(...new TextEncoder().encode(headerValueText(received)))).toBe(received);
  });

  test('ASCII, latin1 bytes that are not UTF-8, and text that is not one character per byte stay as they are', () => {
    expect(headerValueText('sha256=abc')).toBe('sha256=abc');
    expect(headerValueText('caf\u00e9')).toBe('caf\u00e9');
    expect(headerValueText('\u00c3')).toBe('\u00c3');
    expect(headerValueText('日本')).toBe('日本');
  });
});
