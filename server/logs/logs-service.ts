import type { AccountContext } from '../auth/account-context.ts';
import { NotFoundError } from '../errors/app-errors.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { WriteAck } from '../store/store-types.ts';
import type { LogCursorQuery, LogQuery, LogStats, LogStatsQuery, LogStatus, NewLog } from './log-types.ts';
import { summaryView } from './log-views.ts';
import type { LogSummary } from './logs-schemas.ts';
import type { LogsRepository, StoredLog, StoredLogWithAnswer } from './logs-repository.ts';
import { readAnswer, type AnswerReading } from './sender-answers.ts';

/**
 * Whether Explain has something to say about a stored delivery: the remediation
 * feature's rule (server/remediation/eligibility.ts), asked through this so the
 * logs need not know it. Remediation reads logs, so it is built after them: the
 * engine hands this over late, and requests, the only callers, come later still.
 */
export type Explainable = (accountId: string, log: { id: string; status: LogStatus }) => Promise<boolean>;

/** A stored log read whole: the capture with its body as bytes (empty when none came) and the sender's answer. */
export interface StoredLogWithBody extends StoredLogWithAnswer {
  body: Buffer;
}

/**
 * What a list asks: a page by offset (absent: 0), newest first, or with `after` a
 * page after that log, oldest first (the schema refuses `after` with offset or search).
 */
export type LogListRequest = Omit<LogQuery, 'offset'> & { offset?: number; after?: string };

/** A page of the account's logs (newest first, or oldest first after a cursor), without their bodies. */
export interface LogsPage {
  logs: StoredLog[];
  total: number;
  limit: number;
  offset: number;
  hasMore: boolean;
}

/** One log as its detail shows it: the capture, the sender's answer, whether it can be explained. */
export interface LogReading {
  log: StoredLog;
  answer: AnswerReading;
  explainable: boolean;
}

export class LogsService {
  constructor(
    private readonly repo: LogsRepository,
    private readonly ids: IdGenerator,
    private readonly explainable: Explainable,
  ) {}

  /**
   * Stores a capture and returns its id. The receiver asks for a `durable` ack:
   * the sender's 2xx waits for the journal, not for the database worker;
   * `settled` says when the worker is done with it (the body's memory is then free).
   */
  async record(log: NewLog, ack: WriteAck = 'durable'): Promise<{ id: string; settled: Promise<void> }> {
    const id = this.ids.sortable('log');
    const receipt = await this.repo.insert(id, log, ack);
    return { id, settled: receipt.settled };
  }

  async list(account: AccountContext, request: LogListRequest): Promise<LogsPage> {
    const { after, offset = 0, ...filters } = request;
    if (after !== undefined) return this.listAfter(account, { ...filters, after });
    const { rows, total } = await this.repo.page(account.id, { ...filters, offset });
    return { logs: rows, total, limit: request.limit, offset, hasMore: offset + rows.length < total };
  }

  /** A page after a cursor: `total` counts every log after it that passes the filters, so more follow while it is larger. */
  private async listAfter(account: AccountContext, q: LogCursorQuery): Promise<LogsPage> {
    const page = await this.repo.pageAfter(account.id, q);
    if (!page) {
      throw new NotFoundError(
        `Log ${q.after} (after) was not found: it was deleted or evicted by retention, or is not one of this ` +
          "account's logs. List without after (newest first) to find a log to start from.",
        'CURSOR_NOT_FOUND',
      );
    }
    return { logs: page.rows, total: page.total, limit: q.limit, offset: 0, hasMore: page.rows.length < page.total };
  }

  /** The detail of `GET /api/webhooks/logs/:logId`: the capture with what was answered and whether Explain applies. */
  async read(account: AccountContext, id: string): Promise<LogReading> {
    const log = await this.find(account, id);
    return {
      log,
      answer: readAnswer(log, log.answer),
      explainable: await this.explainable(account.id, log),
    };
  }

  /** The log's status without reading its body; null when the account has no such log. */
  async statusOf(accountId: string, id: string): Promise<LogStatus | null> {
    return (await this.repo.findSummary(accountId, id))?.status ?? null;
  }

  /** The list form of a capture the receiver just stored (for live events), without a read. */
  summarize(delivery: NewLog & { id: string }): LogSummary {
    // A delivery is always stored unpinned.
    return summaryView({ ...delivery, storedSize: delivery.body.length, body: null, pinned: false });
  }

  /** Counts, failure reasons and sizes of the account's stored deliveries in a time range (for metrics). */
  async stats(accountId: string, q: LogStatsQuery): Promise<LogStats> {
    return this.repo.stats(accountId, q);
  }

  async deleteForEndpoint(accountId: string, endpointId: string): Promise<void> {
    await this.repo.deleteForEndpoint(accountId, endpointId);
  }

  /**
   * One of the account's logs with its exact bytes, for the features that work on
   * a delivery (share, export, compare, replay, remediation, diagnose); another
   * account's or a missing log is 404 LOG_NOT_FOUND.
   */
  async find(account: AccountContext, id: string): Promise<StoredLogWithBody> {
    const log = await this.repo.find(account.id, id);
    if (!log) throw new NotFoundError(`Log ${id} was not found.`, 'LOG_NOT_FOUND');
    return { ...log, body: log.body ?? Buffer.alloc(0) };
  }
}
