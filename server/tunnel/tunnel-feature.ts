import type { Logger } from '../support/logger.ts';
import { LocaltunnelProvider } from './localtunnel-provider.ts';
import { SubdomainMemory } from './subdomain-memory.ts';
import { logTunnelStates } from './tunnel-state-log.ts';
import { tunnelRoutes } from './tunnel-routes.ts';
import { TunnelService, type TunnelServiceDeps } from './tunnel-service.ts';
import { TunnelSupervisor } from './tunnel-supervisor.ts';

export interface TunnelFeatureDeps extends Omit<TunnelServiceDeps, 'supervisor' | 'memory'> {
  dataDir: string;
  logger: Logger;
}

/**
 * The public URL through localtunnel. It opens once the receiver listens
 * (`online`) and closes first on stop (`offline`), before the listeners.
 */
export function tunnelFeature(deps: TunnelFeatureDeps) {
  const supervisor = new TunnelSupervisor({
    provider: new LocaltunnelProvider({ requestTimeoutMs: deps.config.probeTimeoutMs }),
    timings: deps.config,
    probeOrigin: deps.config.probeOrigin,
    clock: deps.clock,
    random: deps.random,
    onError: deps.onError,
  });
  const service = new TunnelService({ ...deps, supervisor, memory: new SubdomainMemory(deps.dataDir) });
  let unlog: (() => void) | null = null;
  return {
    name: 'tunnel',
    service,
    routes: tunnelRoutes(service),
    observers: [service.observer],
    online: async (at: { tunnelUrl: string }): Promise<void> => {
      unlog = logTunnelStates(service, deps.logger);
      await service.start(at.tunnelUrl);
    },
    offline: async (): Promise<void> => {
      await service.stop();
      unlog?.();
    },
  };
}
