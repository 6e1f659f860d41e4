/** The main area's screens, each at its own URL fragment so a reload keeps it. */
export type View = 'deliveries' | 'metrics';

/** Where each screen lives; the deliveries (the inspector's panes) are the default. */
export const VIEW_HASH: Record<View, string> = {
  deliveries: '#/',
  metrics: '#/metrics',
};

/** The screen a fragment names; anything else (none, `#/`, a sign-in link) is the deliveries. */
export function viewOf(hash: string): View {
  return hash === VIEW_HASH.metrics ? 'metrics' : 'deliveries';
}
