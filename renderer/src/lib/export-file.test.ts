import { describe, expect, test } from 'vitest';
import { EXPORT_CHOICES, exportBytes, exportFilename } from './export-file.ts';

describe('export files', () => {
  test('named hookscope-<logId>.<format>', () => {
    expect(EXPORT_CHOICES.map((c) => exportFilename('log_01JABC', c.format))).toEqual([
      'hookscope-log_01JABC.json',
      'hookscope-log_01JABC.har',
      'hookscope-log_01JABC.http',
    ]);
  });

  test('an id is never a path', () => {
    expect(exportFilename('../etc/passwd', 'json')).toBe('hookscope-___etc_passwd.json');
  });

  test('the bytes: text as UTF-8, a base64 export decoded', () => {
    expect([...exportBytes({ contentEncoding: 'utf8', content: 'é{}' })]).toEqual([0xc3, 0xa9, 0x7b, 0x7d]);
    expect([...exportBytes({ contentEncoding: 'base64', content: 'AP+A' })]).toEqual([0x00, 0xff, 0x80]);
  });
});
