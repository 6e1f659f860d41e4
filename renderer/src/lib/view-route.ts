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

/**
 * What the deliveries screen shows, as its address keeps it, so a reload keeps both:
 * the endpoint chosen (null: All endpoints) and the delivery open.
 */
export interface DeliveriesRoute {
  endpointId: string | null;
  logId: string | null;
}

const ID = '[A-Za-z0-9_-]{1,100}';
const ROUTE = new RegExp(`^#/(?:endpoints/(${ID})(?:/logs/(${ID}))?|logs/(${ID}))$`);

/**
 * The endpoint and delivery an address names: `#/endpoints/<id>`,
 * `#/endpoints/<id>/logs/<id>`, or `#/logs/<id>` (a delivery in All endpoints, as
 * the desktop's notifications and older links name it). Null for any other
 * address, the other screens' and `#/` included: those name neither.
 */
export function deliveriesRouteOf(hash: string): DeliveriesRoute | null {
  const m = ROUTE.exec(hash);
  if (!m) return null;
  return m[1] !== undefined ? { endpointId: m[1], logId: m[2] ?? null } : { endpointId: null, logId: m[3]! };
}

/** The address of what the deliveries screen shows; '' for All endpoints with nothing open. */
export function deliveriesHash(route: DeliveriesRoute): string {
  const log = route.logId === null ? '' : `/logs/${route.logId}`;
  if (route.endpointId !== null) return `#/endpoints/${route.endpointId}${log}`;
  return log === '' ? '' : `#${log}`;
}
