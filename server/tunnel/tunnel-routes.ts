import { route, type RouteSpec } from '../http/route.ts';
import { TunnelStatusSchema, UpdateTunnelBody } from './tunnel-schemas.ts';
import type { TunnelService } from './tunnel-service.ts';

export function tunnelRoutes(tunnel: TunnelService): RouteSpec[] {
  const tag = 'Tunnel';
  return [
    route({
      method: 'get',
      path: '/api/tunnel',
      summary: 'The public URL through localtunnel: state, url, last error, attempts',
      tag,
      acts: false,
      responses: { 200: { description: 'Tunnel status', data: TunnelStatusSchema } },
      handler: async () => ({ data: tunnel.status() }),
    }),
    route({
      method: 'post',
      path: '/api/tunnel',
      summary: 'Turn the tunnel on or off, or change its host or subdomain (owner account only)',
      tag,
      body: UpdateTunnelBody,
      responses: { 200: { description: 'Tunnel status after the change started', data: TunnelStatusSchema } },
      errors: {
        403: 'FORBIDDEN: only the owner account of this install may change the tunnel (or the Host header is not allowed)',
      },
      handler: async ({ body, account }) => ({ data: await tunnel.update(account, body) }),
    }),
  ];
}
