import type { AccountContext } from '../auth/account-context.ts';
import { NotFoundError } from '../errors/app-errors.ts';
import type { LogDeleted, LogUpdated } from './log-events.ts';
import type { EndpointLogsCleared, LogDeletedView, LogsDeleted } from './logs-schemas.ts';
import type { LogsRepository, StoredLog } from './logs-repository.ts';

export interface LogActionsDeps {
  repo: LogsRepository;
  /**
   * The endpoints service's ownership check, for clearing an endpoint's logs: it throws
   * NotFoundError for a missing or another account's endpoint. Declared here, not
   * imported, so the logs folder does not depend on the endpoints folder.
   */
  endpoints: { own(account: AccountContext, endpointId: string): unknown };
  /**
   * `log.updated` (change `pinned`) when a pin changes, `log.deleted` when logs are
   * deleted. The engine passes its event bus, whose event map checks these signatures.
   */
  events: {
    publish: ((accountId: string, type: 'log.updated', data: LogUpdated) => void) &
      ((accountId: string, type: 'log.deleted', data: LogDeleted) => void);
  };
}

const notFound = (id: string): NotFoundError => new NotFoundError(`Log ${id} was not found.`, 'LOG_NOT_FOUND');

/**
 * What a user does to stored logs: delete them (one, many by id, or all of an
 * endpoint's) and pin or unpin one. What other features keep for a log (share link,
 * analysis, replay history, queued forward) goes with it through their triggers on
 * `logs`. Every change is published, and only a change: a request that finds
 * nothing to do publishes nothing.
 */
export class LogActionsService {
  constructor(private readonly deps: LogActionsDeps) {}

  async delete(account: AccountContext, logId: string): Promise<LogDeletedView> {
    const [log] = await this.deps.repo.owned(account.id, [logId]);
    if (!log) throw notFound(logId);
    await this.deps.repo.deleteByIds(account.id, [logId]);
    this.deps.events.publish(account.id, 'log.deleted', {
      endpointId: log.endpointId,
      logIds: [logId],
      cleared: false,
    });
    return { id: logId, deleted: true };
  }

  /**
   * Deletes the account's logs among `ids` (repeats count once) and names the rest
   * as not found: unknown, already gone, or another account's (indistinguishable, as
   * everywhere). One write for all of them; one event per endpoint they belonged to.
   */
  async deleteMany(account: AccountContext, ids: readonly string[]): Promise<LogsDeleted> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.deps.repo.owned(account.id, unique)).map((l) => [l.id, l.endpointId]));
    const deletedIds = unique.filter((id) => found.has(id));
    if (deletedIds.length > 0) {
      await this.deps.repo.deleteByIds(account.id, deletedIds);
      const byEndpoint = new Map<string, string[]>();
      for (const id of deletedIds) {
        const endpointId = found.get(id)!;
        byEndpoint.set(endpointId, [...(byEndpoint.get(endpointId) ?? []), id]);
      }
      for (const [endpointId, logIds] of byEndpoint) {
        this.deps.events.publish(account.id, 'log.deleted', { endpointId, logIds, cleared: false });
      }
    }
    return { deleted: deletedIds.length, deletedIds, notFound: unique.filter((id) => !found.has(id)) };
  }

  /**
   * Deletes the endpoint's unpinned logs as they are when the clear begins; pinned
   * ones stay (they leave only by their own delete, or with the endpoint). The logs
   * are read first and deleted by id, so the event names exactly what went, and a
   * delivery arriving meanwhile is kept (it was not on the user's screen).
   */
  async clearEndpoint(account: AccountContext, endpointId: string): Promise<EndpointLogsCleared> {
    this.deps.endpoints.own(account, endpointId);
    const { unpinnedIds: logIds, pinned } = await this.deps.repo.clearable(account.id, endpointId);
    if (logIds.length > 0) {
      await this.deps.repo.deleteByIds(account.id, logIds);
      this.deps.events.publish(account.id, 'log.deleted', { endpointId, logIds, cleared: true });
    }
    return { endpointId, deleted: logIds.length, pinnedKept: pinned };
  }

  /** Pins or unpins a log and answers it (without its body); setting the current value again changes nothing. */
  async setPinned(account: AccountContext, logId: string, pinned: boolean): Promise<StoredLog> {
    const log = await this.deps.repo.findSummary(account.id, logId);
    if (!log) throw notFound(logId);
    if (log.pinned !== pinned) {
      await this.deps.repo.setPinned(account.id, logId, pinned);
      this.deps.events.publish(account.id, 'log.updated', { logId, endpointId: log.endpointId, change: 'pinned' });
    }
    return { ...log, pinned };
  }
}
