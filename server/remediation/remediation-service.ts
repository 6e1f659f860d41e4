import type { AccountContext } from '../auth/account-context.ts';
import type { EndpointRecord } from '../endpoints/endpoint-types.ts';
import { ConflictError } from '../errors/app-errors.ts';
import type { LogUpdated } from '../logs/log-events.ts';
import type { LogDetail } from '../logs/logs-schemas.ts';
import { replayFailed, type ReplayReader } from '../replay/replay-types.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import { runRules } from './analyzer.ts';
import { askLlm, type LlmConfig } from './llm-client.ts';
import { LLM_SYSTEM_PROMPT, llmFacts } from './llm-prompt.ts';
import type { RemediationRepository, StoredAnalysis } from './remediation-repository.ts';
import type { ReceiverLimitsForRules, RuleContext } from './remediation-types.ts';
import type { Analysis } from './remediation-schemas.ts';

export interface RemediationServiceDeps {
  repo: RemediationRepository;
  /** LogsService: the log and its stored bytes, scoped by account (404 otherwise). */
  logs: { get(account: AccountContext, id: string): Promise<LogDetail> };
  /** EndpointsService: the endpoint with its secrets, scoped by account (404 otherwise). */
  endpoints: { own(account: AccountContext, id: string): EndpointRecord };
  replays: ReplayReader;
  clock: Clock;
  limits: ReceiverLimitsForRules;
  /** How long a regenerated secret's predecessor stayed valid: gives the rotation time. */
  secretGraceMs: number;
  /** Off (null) by default; the rules never depend on it. Read at each analysis (Settings changes it live). */
  llm: () => LlmConfig | null;
  /**
   * `log.updated` (change `analysis`) when an analysis is stored. The engine
   * passes its event bus, whose event map (server/events/event-map.ts) checks this signature.
   */
  events: { publish: (accountId: string, type: 'log.updated', data: LogUpdated) => void };
}

/** Replays looked at per analysis (the newest). */
const REPLAY_HISTORY_LIMIT = 50;

/**
 * "Why did this fail?": runs the deterministic rules over the stored delivery,
 * optionally asks a configured LLM for prose, and keeps the result per log.
 */
export class RemediationService {
  constructor(private readonly deps: RemediationServiceDeps) {}

  async analyze(account: AccountContext, logId: string, opts: { refresh?: boolean } = {}): Promise<Analysis> {
    // The log first: an unknown or foreign log is 404 even when an analysis exists.
    const log = await this.deps.logs.get(account, logId);
    if (!opts.refresh) {
      const stored = await this.deps.repo.find(account.id, logId);
      if (stored) return { ...stored, cached: true };
    }
    const replays = await this.deps.replays.history(account.id, logId, REPLAY_HISTORY_LIMIT);
    if (log.status !== 'failed' && !replays.some(replayFailed)) {
      throw new ConflictError(
        `Log ${logId} has nothing to analyze: its verification ${log.verification.result === 'skipped' ? 'was skipped (unsigned endpoint)' : 'passed'} and no replay or forward of it failed.`,
        'NOT_ELIGIBLE',
        { logId, status: log.status, replaysFailed: 0 },
      );
    }
    const ctx = this.context(account, log, replays);
    const { summary, causes } = runRules(ctx);
    const createdAt = this.deps.clock.now();
    let analysis: StoredAnalysis = { logId, summary, causes, engine: 'rules', createdAt: isoTime(createdAt) };
    const llm = this.deps.llm();
    if (llm) {
      const answer = await askLlm(llm, LLM_SYSTEM_PROMPT, llmFacts(ctx, summary, causes));
      analysis = answer.ok
        ? { ...analysis, engine: 'rules+llm', explanation: answer.text }
        : { ...analysis, llmError: answer.error };
    }
    await this.deps.repo.save(account.id, log.endpointId, analysis, createdAt);
    this.deps.events.publish(account.id, 'log.updated', { logId, endpointId: log.endpointId, change: 'analysis' });
    return { ...analysis, cached: false };
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.deps.repo.deleteForEndpoint(accountId, endpointId);
  }

  private context(account: AccountContext, log: LogDetail, replays: RuleContext['replays']): RuleContext {
    const e = this.deps.endpoints.own(account, log.endpointId);
    return {
      log: {
        id: log.id,
        endpointId: log.endpointId,
        method: log.method,
        receivedAt: Date.parse(log.receivedAt),
        status: log.status,
        verification: log.verification,
        headers: log.headers,
        body: Buffer.from(log.body, log.bodyEncoding),
        truncated: log.truncated,
        size: log.size,
        declaredSize: log.declaredSize,
      },
      endpoint: {
        id: e.id,
        scheme: e.validationType,
        secrets: e.secret ? [{ value: e.secret, kind: 'current' }] : [],
        previous:
          e.previousSecretExpiresAt !== null
            ? {
                value: e.previousSecret,
                replacedAt: e.previousSecretExpiresAt - this.deps.secretGraceMs,
                expiredAt: e.previousSecretExpiresAt,
              }
            : null,
        signatureHeader: e.signatureHeader,
        toleranceSeconds: e.toleranceSeconds,
      },
      replays,
      limits: this.deps.limits,
      now: this.deps.clock.now(),
    };
  }
}
