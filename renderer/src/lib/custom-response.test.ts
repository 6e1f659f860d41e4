import { describe, expect, test } from 'vitest';
import { draftOf, EMPTY_DRAFT, responseFromDraft } from './custom-response.ts';

describe('the custom response draft', () => {
  test('no status is the default answer (null)', () => {
    expect(responseFromDraft({ ...EMPTY_DRAFT, body: 'ignored' })).toEqual({ ok: true, value: null });
  });

  test('a full draft becomes the engine object; an empty delay is 0', () => {
    expect(responseFromDraft({ status: ' 202 ', headers: 'X-A: 1', body: 'later', delayMs: '' })).toEqual({
      ok: true,
      value: { status: 202, headers: [{ name: 'X-A', value: '1' }], body: 'later', delayMs: 0 },
    });
    expect(responseFromDraft({ status: '503', headers: '', body: '', delayMs: '30000' })).toEqual({
      ok: true,
      value: { status: 503, headers: [], body: '', delayMs: 30000 },
    });
  });

  test('status 200..599 and delay 0..30000, whole numbers, said in words', () => {
    const status = { ok: false, error: 'Status must be a whole number from 200 to 599.' };
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '199' })).toEqual(status);
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '600' })).toEqual(status);
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '20.5' })).toEqual(status);
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '200' })).toMatchObject({ ok: true });
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '599' })).toMatchObject({ ok: true });
    const delay = { ok: false, error: 'Delay must be a whole number of milliseconds from 0 to 30000.' };
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '200', delayMs: '30001' })).toEqual(delay);
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '200', delayMs: '-1' })).toEqual(delay);
  });

  test('a bad header line stops it', () => {
    expect(responseFromDraft({ ...EMPTY_DRAFT, status: '200', headers: 'oops' })).toEqual({
      ok: false,
      error: 'Headers, line 1: write it as "Name: value".',
    });
  });

  test('what the engine holds shows as a draft that gives it back', () => {
    const held = { status: 503, headers: [{ name: 'Retry-After', value: '120' }], body: 'down', delayMs: 5000 };
    expect(draftOf(held)).toEqual({ status: '503', headers: 'Retry-After: 120', body: 'down', delayMs: '5000' });
    expect(responseFromDraft(draftOf(held))).toEqual({ ok: true, value: held });
    expect(draftOf(null)).toEqual(EMPTY_DRAFT);
  });
});
