/** The main area's screens, each at its own URL fragment so a reload keeps it. */
export type View = 'deliveries' | 'metrics' | 'settings';

/** Where each screen lives; the deliveries (the inspector's panes) are the default. */
export const VIEW_HASH: Record<View, string> = {
  deliveries: '#/',
  metrics: '#/metrics',
  settings: '#/settings',
};

/** The screen a fragment names; anything else (none, `#/`, a sign-in link) is the deliveries. */
export function viewOf(hash: string): View {
  if (hash === VIEW_HASH.metrics) return 'metrics';
  return hash === VIEW_HASH.settings ? 'settings' : 'deliveries';
}
