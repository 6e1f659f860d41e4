import type { LogSummary } from '../logs/log-types.ts';
import type { VerificationResult } from '../signatures/verification.ts';
import type { ReplayHistoryEntry } from '../replay/replay-types.ts';

export interface ProbeTimeouts {
  dnsMs: number;
  connectMs: number;
  httpMs: number;
}

export interface ProbeStep {
  ok: boolean;
  /** Milliseconds the step took; null when it was skipped. */
  ms: number | null;
  error: string | null;
}

export interface DestinationChecks {
  url: string;
  source: 'query' | 'forward' | 'lastReplay';
  dns: ProbeStep & { addresses: string[] };
  connect: ProbeStep;
  /** ok when the server answered HTTP at all; `status` says what it answered. */
  http: ProbeStep & { status: number | null; method: 'HEAD' | 'GET' | null };
}

/** A replay of the log, newest first, as the replay history shows it. */
export type RecentReplay = ReplayHistoryEntry;

export interface Diagnosis {
  log: LogSummary;
  reconstruction: { url: string; curl: string; http: string };
  verification: {
    stored: LogSummary['verification'];
    /** Recomputed now with the endpoint's current secrets; null when the endpoint is gone. */
    now: (VerificationResult & { checkedAt: string }) | null;
  };
  destination: DestinationChecks | null;
  recentReplays: RecentReplay[];
}
