import type { AccountContext } from '../auth/account-context.ts';
import type { EndpointRecord } from '../endpoints/endpoint-types.ts';
import { ConflictError } from '../errors/app-errors.ts';
import type { LogUpdated } from '../logs/log-events.ts';
import type { LogStatus } from '../logs/log-types.ts';
import type { StoredLogWithBody } from '../logs/logs-service.ts';
import type { ReplayReader, ReplayRecord } from '../replay/replay-types.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import { headerObject } from '../support/headers.ts';
import { runRules } from './analyzer.ts';
import { isExplainable, REPLAY_HISTORY_LIMIT } from './eligibility.ts';
import { askLlm, type LlmConfig } from './llm-client.ts';
import { LLM_SYSTEM_PROMPT, llmFacts } from './llm-prompt.ts';
import type { RemediationRepository, StoredAnalysis } from './remediation-repository.ts';
import type { ReceiverLimitsForRules, RuleContext } from './remediation-types.ts';
import type { Analysis } from './remediation-schemas.ts';

export interface RemediationServiceDeps {
  repo: RemediationRepository;
  /** LogsService: the log and its stored bytes, scoped by account (404 otherwise); its status alone (null: none). */
  logs: {
    find(account: AccountContext, id: string): Promise<StoredLogWithBody>;
    statusOf(accountId: string, id: string): Promise<LogStatus | null>;
  };
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
   * `log.updated` (change `analysis`) when an analysis is stored, (change
   * `explainable`) when a replay or forward changed whether one can be. The engine
   * passes its event bus, whose event map (server/events/event-map.ts) checks this signature.
   */
  events: { publish: (accountId: string, type: 'log.updated', data: LogUpdated) => void };
  /** Where a fault of work no request waits for goes (following a replay). */
  onError: (err: unknown) => void;
}

/**
 * "Why did this fail?": runs the deterministic rules over the stored delivery,
 * optionally asks a configured LLM for prose, and keeps the result per log.
 */
export class RemediationService {
  constructor(private readonly deps: RemediationServiceDeps) {}

  async analyze(account: AccountContext, logId: string, opts: { refresh?: boolean } = {}): Promise<Analysis> {
    // The log first: an unknown or foreign log is 404 even when an analysis exists.
    const log = await this.deps.logs.find(account, logId);
    if (!opts.refresh) {
      const stored = await this.deps.repo.find(account.id, logId);
      if (stored) return { ...stored, cached: true };
    }
    const replays = await this.deps.replays.history(account.id, logId, REPLAY_HISTORY_LIMIT);
    if (!isExplainable(log.status, replays)) {
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

  /** The log detail's `explainable`: whether analyze would explain this log now (no history read for a failed one). */
  async explainable(accountId: string, log: { id: string; status: LogStatus }): Promise<boolean> {
    if (isExplainable(log.status, [])) return true;
    return isExplainable(log.status, await this.deps.replays.history(accountId, log.id, REPLAY_HISTORY_LIMIT));
  }

  /**
   * Told of every replay and forward attempt once it is stored (ReplayService.record):
   * when it changed whether the log can be explained, live clients hear so
   * (`log.updated`, change `explainable`) and need not read the history. Awaited, so
   * the event comes before the replay's answer; a fault here is logged and never
   * fails the attempt, which is stored already.
   */
  async replayRecorded(r: ReplayRecord): Promise<void> {
    await this.followReplay(r).catch(this.deps.onError);
  }

  private async followReplay(r: ReplayRecord): Promise<void> {
    const status = await this.deps.logs.statusOf(r.accountId, r.logId);
    // Deleted meanwhile (nothing to tell), or a failed verification (explainable whatever its replays).
    if (status === null || isExplainable(status, [])) return;
    // One more than the rule reads, so the state before this attempt is known too.
    const newest = await this.deps.replays.history(r.accountId, r.logId, REPLAY_HISTORY_LIMIT + 1);
    const now = isExplainable(status, newest);
    const before = isExplainable(
      status,
      newest.filter((x) => x.id !== r.id),
    );
    if (now === before) return;
    this.deps.events.publish(r.accountId, 'log.updated', {
      logId: r.logId,
      endpointId: r.endpointId,
      change: 'explainable',
      explainable: now,
    });
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.deps.repo.deleteForEndpoint(accountId, endpointId);
  }

  private context(account: AccountContext, log: StoredLogWithBody, replays: RuleContext['replays']): RuleContext {
    const e = this.deps.endpoints.own(account, log.endpointId);
    return {
      log: {
        id: log.id,
        endpointId: log.endpointId,
        method: log.method,
        receivedAt: log.receivedAt,
        status: log.status,
        verification: log.verification,
        headers: headerObject(log.rawHeaders),
        body: log.body,
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
