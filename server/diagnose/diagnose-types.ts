import type { LogVerification } from '../logs/logs-schemas.ts';
import type { StoredLogWithBody } from '../logs/logs-service.ts';
import type { ReplayRecord } from '../replay/replay-types.ts';
import type { DestinationChecks } from './diagnose-schemas.ts';

export interface ProbeTimeouts {
  dnsMs: number;
  connectMs: number;
  httpMs: number;
}

/** What a diagnosis found, times in epoch ms (diagnose-views.ts makes the API's form). */
export interface Diagnosis {
  /** The delivery (its body is in the reconstruction). */
  log: StoredLogWithBody;
  reconstruction: { url: string; curl: string; http: string };
  verification: {
    stored: LogVerification;
    /** Recomputed with the endpoint's current secrets; null when the endpoint is gone. */
    now: (LogVerification & { checkedAt: number }) | null;
  };
  destination: DestinationChecks | null;
  /** Newest first. */
  recentReplays: ReplayRecord[];
}
