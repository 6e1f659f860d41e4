import { useSlice, useStores } from '../../stores/app-stores.ts';

/** The title of every control that needs the engine, while it is stopped. */
export const ENGINE_STOPPED_WHY = 'The engine is stopped: this works again once it is back';

/** Whether the engine is stopped (stores/live-store.ts decides: down for a while, nothing answering). */
export function useEngineStopped(): boolean {
  const { live } = useStores();
  return useSlice(live, (s) => s.state === 'stopped');
}

/**
 * The `disabled` and `title` of a control that calls the engine: while it is stopped,
 * disabled (not hidden) and saying why; otherwise its own.
 */
export function engineControl(
  stopped: boolean,
  own: { disabled?: boolean; title?: string } = {},
): { disabled: boolean; title: string | undefined } {
  return stopped
    ? { disabled: true, title: ENGINE_STOPPED_WHY }
    : { disabled: own.disabled ?? false, title: own.title };
}
