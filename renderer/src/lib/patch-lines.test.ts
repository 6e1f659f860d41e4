import { describe, expect, test } from 'vitest';
import { patchLines } from './patch-lines.ts';

describe('patchLines', () => {
  test('the hunks without the file header or the final empty line', () => {
    const patch = [
      'Index: rp_a',
      '===================================================================',
      '--- a/rp_a',
      '+++ b/rp_b',
      '@@ -1,3 +1,3 @@',
      ' {',
      '-  "ok": true',
      '+  "ok": false',
      ' }',
      '',
    ].join('\n');
    expect(patchLines(patch)).toEqual(['@@ -1,3 +1,3 @@', ' {', '-  "ok": true', '+  "ok": false', ' }']);
  });

  test('no hunk header: every line as it is', () => {
    expect(patchLines('a\nb')).toEqual(['a', 'b']);
    expect(patchLines('')).toEqual([]);
  });
});
