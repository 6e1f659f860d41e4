import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { escapeControls, jsonWithEscapedControls, terminalSafe } from '../../../server/cli/terminal-safe.ts';

const range = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

test('every C0 control but tab and newline, DEL and every C1 control are shown escaped', () => {
  for (const code of [...range(0x00, 0x08), ...range(0x0b, 0x0c), ...range(0x0e, 0x1f), 0x7f]) {
    assert.equal(
      escapeControls(`a${String.fromCharCode(code)}b`),
      `a\\x${code.toString(16).padStart(2, '0')}b`,
      `0x${code.toString(16)}`,
    );
  }
  assert.equal(escapeControls('a\rb'), 'a\\rb');
  for (const code of range(0x80, 0x9f)) {
    assert.equal(
      escapeControls(`a${String.fromCharCode(code)}b`),
      `a\\u00${code.toString(16)}b`,
      `U+00${code.toString(16)}`,
    );
  }
});

test('newline, tab, printable ASCII and other Unicode stay as they are', () => {
  const text = 'line 1\n\tline 2 {"a":"\\u001b"} é ✓ 💥 \u00a0\u00ff ~';
  assert.equal(escapeControls(text), text);
  const printable = String.fromCharCode(...range(0x20, 0x7e), ...range(0xa0, 0x17f));
  assert.equal(escapeControls(printable), printable);
});

test('the title, colour and carriage-return tricks come out inert', () => {
  const evil = 'ok\x1b]0;pwned\x07\x1b[31mred\x1b[0m\rfake line\u009b2J\x00';
  const shown = escapeControls(evil);
  assert.equal(shown, 'ok\\x1b]0;pwned\\x07\\x1b[31mred\\x1b[0m\\rfake line\\u009b2J\\x00');
  // eslint-disable-next-line no-control-regex -- no control character may be left
  assert.doesNotMatch(shown, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
});

test('terminalSafe escapes only for a terminal; a pipe gets the text unchanged', () => {
  const evil = 'a\x1b[2Jb';
  assert.equal(terminalSafe(true)(evil), 'a\\x1b[2Jb');
  assert.equal(terminalSafe(false)(evil), evil);
  assert.equal(terminalSafe(undefined)(evil), evil);
});

test('JSON output keeps its value and loses the raw DEL and C1 characters', () => {
  const value = { body: 'a\x1b\x7f\u009b\u0085z', 'k\u009b': ['\r'] };
  const json = jsonWithEscapedControls(JSON.stringify(value, null, 2));
  // eslint-disable-next-line no-control-regex -- no control character may be left
  assert.doesNotMatch(json, /[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
  assert.ok(json.includes('a\\u001b\\u007f\\u009b\\u0085z'), json);
  assert.deepEqual(JSON.parse(json), value);
});

const BIDI_CODES = [0x061c, 0x200e, 0x200f, ...range(0x202a, 0x202e), ...range(0x2066, 0x2069)];

test('every bidi control is shown as its code point, and nothing around it changes', () => {
  for (const code of BIDI_CODES) {
    assert.equal(
      escapeControls(`a${String.fromCharCode(code)}b`),
      `a\\u${code.toString(16).padStart(4, '0')}b`,
      `U+${code.toString(16)}`,
    );
  }
  // Neighbours of the ranges, and right-to-left text itself, are not controls.
  const text = 'a\u200d\u2029\u202f\u2065\u206a שלום مرحبا';
  assert.equal(escapeControls(text), text);
  assert.equal(escapeControls('invoice_\u202Efdp.exe\x1b'), 'invoice_\\u202efdp.exe\\x1b');
});

test('JSON output writes the bidi controls as JSON escapes and keeps its value', () => {
  const value = { file: 'invoice_\u202Efdp.exe', ['k\u2066']: String.fromCharCode(...BIDI_CODES) };
  const json = jsonWithEscapedControls(JSON.stringify(value));
  assert.doesNotMatch(json, /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
  assert.ok(json.includes('"invoice_\\u202efdp.exe"'), json);
  assert.deepEqual(JSON.parse(json), value);
});
