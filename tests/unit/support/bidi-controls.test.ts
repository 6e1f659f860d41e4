import assert from 'node:assert/strict';
import { test } from '../../helpers/node-test.ts';
import { hasBidiControls, markBidiControls, splitBidiControls } from '../../../server/support/bidi-controls.ts';

const ALL = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';

test('each of the twelve bidi controls becomes a visible marker; other text is untouched', () => {
  assert.equal(
    markBidiControls(ALL),
    '⟨U+061C⟩⟨U+200E⟩⟨U+200F⟩⟨U+202A⟩⟨U+202B⟩⟨U+202C⟩⟨U+202D⟩⟨U+202E⟩⟨U+2066⟩⟨U+2067⟩⟨U+2068⟩⟨U+2069⟩',
  );
  assert.equal(markBidiControls('invoice_\u202Efdp.exe'), 'invoice_⟨U+202E⟩fdp.exe');
  const plain = 'שלום مرحبا a\u200d\u202f\u2065\u206a\x1b';
  assert.equal(markBidiControls(plain), plain);
  assert.equal(hasBidiControls(plain), false);
  assert.equal(hasBidiControls('x\u2069'), true);
});

test('split gives the runs of text and each control with its marker and name, in order', () => {
  assert.deepEqual(splitBidiControls('plain'), ['plain']);
  assert.deepEqual(splitBidiControls(''), ['']);
  assert.deepEqual(splitBidiControls('\u202Eab\u2066\u2069c'), [
    { marker: '⟨U+202E⟩', name: 'U+202E RIGHT-TO-LEFT OVERRIDE' },
    'ab',
    { marker: '⟨U+2066⟩', name: 'U+2066 LEFT-TO-RIGHT ISOLATE' },
    { marker: '⟨U+2069⟩', name: 'U+2069 POP DIRECTIONAL ISOLATE' },
    'c',
  ]);
  assert.deepEqual(splitBidiControls('a\u061c'), ['a', { marker: '⟨U+061C⟩', name: 'U+061C ARABIC LETTER MARK' }]);
});
