import { LocaltunnelProvider } from './localtunnel-provider.ts';
import { SubdomainMemory } from './subdomain-memory.ts';
import { TunnelService, type TunnelServiceDeps } from './tunnel-service.ts';
import { TunnelSupervisor } from './tunnel-supervisor.ts';

/** The tunnel feature with localtunnel as its provider, as the engine wires it. */
export function createTunnelService(
  o: Omit<TunnelServiceDeps, 'supervisor' | 'memory'> & { dataDir: string },
): TunnelService {
  const supervisor = new TunnelSupervisor({
    provider: new LocaltunnelProvider({ requestTimeoutMs: o.config.probeTimeoutMs }),
    timings: o.config,
    probeOrigin: o.config.probeOrigin,
    clock: o.clock,
    random: o.random,
    onError: o.onError,
  });
  return new TunnelService({ ...o, supervisor, memory: new SubdomainMemory(o.dataDir) });
}
