import { describe, expect, test } from 'vitest';
import { followReaction, scrolledAway, unseenAbove, type FollowView } from './follow-newest.ts';

const at = (over: Partial<FollowView>): FollowView => ({
  following: true,
  arrivals: 0,
  topId: 'log_a',
  selectedId: null,
  ...over,
});

describe('follow newest', () => {
  test('a delivery that arrives while following is scrolled to and opened', () => {
    expect(followReaction(at({}), at({ arrivals: 1, topId: 'log_b' }))).toEqual({ scrollToTop: true, open: 'log_b' });
    // What following opened before is replaced by the newer one.
    expect(
      followReaction(at({ selectedId: 'log_a' }), at({ arrivals: 1, topId: 'log_b', selectedId: 'log_a' })),
    ).toEqual({ scrollToTop: true, open: 'log_b' });
    // Already open (opened by following a moment ago): only the scroll.
    expect(followReaction(at({}), at({ arrivals: 2, topId: 'log_b', selectedId: 'log_b' }))).toEqual({
      scrollToTop: true,
      open: null,
    });
  });

  test('while paused, arrivals change nothing; other changes never do', () => {
    const off = { following: false };
    expect(followReaction(at(off), at({ ...off, arrivals: 1, topId: 'log_b' }))).toEqual({
      scrollToTop: false,
      open: null,
    });
    // Following, but nothing arrived (a next page, a selection, a pin): nothing.
    expect(followReaction(at({}), at({ selectedId: 'log_z' }))).toEqual({ scrollToTop: false, open: null });
    // Turned off.
    expect(followReaction(at({}), at({ following: false, arrivals: 1 }))).toEqual({ scrollToTop: false, open: null });
  });

  test('resuming jumps to the newest and opens it, even with nothing new', () => {
    expect(followReaction(at({ following: false, selectedId: 'log_old' }), at({ selectedId: 'log_old' }))).toEqual({
      scrollToTop: true,
      open: 'log_a',
    });
    // An empty list: the scroll only.
    expect(followReaction(at({ following: false, topId: null }), at({ topId: null }))).toEqual({
      scrollToTop: true,
      open: null,
    });
  });

  test('scrolling more than half a row away from the top is navigation', () => {
    expect(scrolledAway(0, 52)).toBe(false);
    expect(scrolledAway(26, 52)).toBe(false);
    expect(scrolledAway(27, 52)).toBe(true);
  });

  test('"N new": arrivals above the view stay new until scrolled into view, and none are at the top', () => {
    // Ten rows down, three arrived above: all three hidden.
    expect(unseenAbove(3, 13 * 52, 52)).toBe(3);
    // Two rows above the view: only the two newest are still hidden.
    expect(unseenAbove(3, 2 * 52, 52)).toBe(2);
    expect(unseenAbove(3, 52, 52)).toBe(1);
    // Back at the top (within half a row): none.
    expect(unseenAbove(3, 26, 52)).toBe(0);
    expect(unseenAbove(3, 0, 52)).toBe(0);
    expect(unseenAbove(0, 20 * 52, 52)).toBe(0);
  });
});
