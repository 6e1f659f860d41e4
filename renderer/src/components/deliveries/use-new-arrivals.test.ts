import { act, renderHook } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { useNewArrivals } from './use-new-arrivals.ts';

describe('what "N new" counts', () => {
  test('rows arrived while scrolled down add up; scrolling reveals them; another list starts with none', () => {
    const first = { endpointId: null };
    const { result, rerender } = renderHook(({ list }) => useNewArrivals(52, list), { initialProps: { list: first } });
    expect(result.current.count).toBe(0);
    act(() => result.current.arrived(2));
    act(() => result.current.arrived(1));
    expect(result.current.count).toBe(3);
    act(() => result.current.scrolled(20 * 52));
    expect(result.current.count).toBe(3);
    act(() => result.current.scrolled(52));
    expect(result.current.count).toBe(1);

    act(() => result.current.arrived(4));
    rerender({ list: first });
    expect(result.current.count).toBe(5);
    rerender({ list: { endpointId: null } });
    expect(result.current.count).toBe(0);
    act(() => result.current.arrived(1));
    expect(result.current.count).toBe(1);
  });
});
