import type express from 'express';

export interface MountedRoute {
  method: string;
  path: string;
}

/**
 * The routes Express actually has, read from its router (Express 5 exposes
 * `app.router`), so a test can hold the OpenAPI document against what is
 * mounted rather than against the list both were built from.
 */
export function mountedRoutes(app: express.Express): MountedRoute[] {
  const stack = (app.router as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] })
    .stack;
  const out: MountedRoute[] = [];
  for (const layer of stack) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) {
      if (on && method !== '_all') out.push({ method, path: layer.route.path });
    }
  }
  return out;
}
