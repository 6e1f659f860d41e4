import type { EndpointDependents } from './endpoint-dependents.ts';
import type { AccountContext } from '../auth/account-context.ts';
import { ConflictError, NotFoundError, ValidationError } from '../errors/app-errors.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import { isoTime, type Clock } from '../support/clock.ts';
import type { IdGenerator } from '../support/ids.ts';
import type { Random } from '../support/random.ts';
import type { CreateEndpointInput, EndpointRecord, ReceiverEndpoint, UpdateEndpointInput } from './endpoint-types.ts';
import type { EndpointView } from './endpoints-schemas.ts';
import type { EndpointChanged } from './endpoint-events.ts';
import type { EndpointsRepository } from './endpoints-repository.ts';
import { schemeFor, SIGNATURE_SCHEMES } from '../signatures/registry.ts';
import { hasTimestamp, requiresSecret, TIMESTAMPED_TYPES, type ValidationType } from './validation-types.ts';

export interface EndpointsServiceDeps {
  repo: EndpointsRepository;
  clock: Clock;
  random: Random;
  ids: IdGenerator;
  urls: BaseUrls;
  /** How long a regenerated secret's predecessor stays valid. */
  secretGraceMs: number;
  /** The features that keep something per endpoint: told of deletions (before the endpoint goes) and updates. */
  dependents: Pick<EndpointDependents, 'deleted' | 'updated'>;
  /**
   * `endpoint.changed` to the endpoint's account after each stored change. The
   * engine passes its event bus, whose event map (server/events/event-map.ts) checks this signature.
   */
  events: { publish: (accountId: string, type: 'endpoint.changed', data: EndpointChanged) => void };
  /**
   * Other engines write to the same database (a team server): a receiver miss
   * reads the database before answering 404. The embedded store is this engine's
   * alone, so the table is complete and a miss is final.
   */
  shared?: boolean;
}

/**
 * Endpoint management. Every endpoint is also held in memory: the receiver looks
 * one up on each delivery, and a database round trip there would cost the hot
 * path. The repository stays the source of truth; the map is rebuilt from it on
 * start and updated only after a write succeeded. On a team server, another
 * instance's changes arrive as `endpoint.changed` events (see `refresh`).
 */
export class EndpointsService {
  private readonly byId = new Map<string, EndpointRecord>();
  /** Refreshes apply in the order their events came, so an older read never overwrites a newer one. */
  private refreshing: Promise<void> = Promise.resolve();
  /**
   * When each endpoint last changed here (a count of local changes), so that a database
   * read begun before a local change is read again rather than put back what it
   * changed (a refresh or a receiver miss reading an endpoint this instance deletes
   * meanwhile: seen in CI as a deleted endpoint still answering for a moment).
   */
  private localChanges = 0;
  private readonly changedAt = new Map<string, number>();
  /** Deleted here (or being deleted: the table lets go first): never put back by a read. Ids are never reused. */
  private readonly deletedHere = new Set<string>();

  constructor(private readonly deps: EndpointsServiceDeps) {}

  async init(): Promise<void> {
    this.byId.clear();
    for (const e of await this.deps.repo.all()) this.byId.set(e.id, e);
  }

  async create(account: AccountContext, input: CreateEndpointInput): Promise<EndpointView> {
    const signed = requiresSecret(input.validationType);
    if (signed && !input.webhookSecret) {
      throw new ValidationError(`webhookSecret is required for ${input.validationType} endpoints.`, {
        field: 'webhookSecret',
      });
    }
    checkSchemeOptions(input.validationType, input);
    if (signed && input.webhookSecret) checkSecretFormat(input.validationType, input.webhookSecret);
    const now = this.deps.clock.now();
    const record: EndpointRecord = {
      id: this.deps.ids.opaque('ep'),
      accountId: account.id,
      name: input.name,
      description: input.description ?? null,
      validationType: input.validationType,
      secret: signed ? (input.webhookSecret ?? null) : null,
      previousSecret: null,
      previousSecretExpiresAt: null,
      signatureHeader: input.signatureHeader ?? null,
      toleranceSeconds: input.toleranceSeconds ?? null,
      forwardUrl: input.forwardUrl ?? null,
      customResponse: input.customResponse ?? null,
      isActive: true,
      createdAt: now,
      updatedAt: now,
    };
    await this.deps.repo.insert(record);
    this.put(record.id, record);
    this.changed(record, 'created');
    return this.view(record);
  }

  list(account: AccountContext): { endpoints: EndpointView[]; total: number } {
    const endpoints = [...this.byId.values()]
      .filter((e) => e.accountId === account.id)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
      .map((e) => this.view(e));
    return { endpoints, total: endpoints.length };
  }

  get(account: AccountContext, id: string): EndpointView {
    return this.view(this.own(account, id));
  }

  /** Throws NotFoundError unless the endpoint exists and belongs to the account. */
  own(account: AccountContext, id: string): EndpointRecord {
    const e = this.byId.get(id);
    // Another account's endpoint answers exactly like a missing one.
    if (!e || e.accountId !== account.id)
      throw new NotFoundError(`Endpoint ${id} was not found.`, 'ENDPOINT_NOT_FOUND');
    return e;
  }

  async update(account: AccountContext, id: string, input: UpdateEndpointInput): Promise<EndpointView> {
    const current = this.own(account, id);
    checkSchemeOptions(current.validationType, input);
    const next: EndpointRecord = {
      ...current,
      name: input.name ?? current.name,
      description: input.description !== undefined ? input.description : current.description,
      isActive: input.isActive ?? current.isActive,
      forwardUrl: input.forwardUrl !== undefined ? input.forwardUrl : current.forwardUrl,
      signatureHeader: input.signatureHeader !== undefined ? input.signatureHeader : current.signatureHeader,
      toleranceSeconds: input.toleranceSeconds !== undefined ? input.toleranceSeconds : current.toleranceSeconds,
      customResponse: input.customResponse !== undefined ? input.customResponse : current.customResponse,
      updatedAt: this.deps.clock.now(),
    };
    await this.deps.repo.update(next);
    this.put(id, next);
    this.changed(next, 'updated');
    await this.deps.dependents.updated(current, next);
    return this.view(next);
  }

  async delete(account: AccountContext, id: string): Promise<{ id: string; deleted: true }> {
    this.own(account, id);
    // Stop accepting deliveries first, then remove what hangs off the endpoint, then the endpoint:
    // a crash part-way leaves an endpoint with fewer logs, never logs without an endpoint.
    const record = this.byId.get(id)!;
    this.drop(id);
    try {
      await this.deps.dependents.deleted(account.id, id);
      await this.deps.repo.delete(account.id, id);
    } catch (e) {
      this.put(id, record);
      throw e;
    }
    this.changed(record, 'deleted');
    return { id, deleted: true };
  }

  async regenerateSecret(
    account: AccountContext,
    id: string,
    requested: string | undefined,
  ): Promise<{ id: string; webhookSecret: string; previousSecretExpiresAt: string | null }> {
    const current = this.own(account, id);
    // Only where Hookscope issues the secret: the others are issued by the sender.
    const notRegenerable = schemeFor(current.validationType).secret.notRegenerable;
    if (notRegenerable !== null) {
      throw new ConflictError(notRegenerable, 'SECRET_NOT_REGENERABLE', {
        validationType: current.validationType,
      });
    }
    const secret = requested ?? this.deps.random.bytes(32).toString('hex');
    const next = await this.rotate(current, secret, 'secret_regenerated');
    return { id, webhookSecret: secret, previousSecretExpiresAt: isoOrNull(next.previousSecretExpiresAt) };
  }

  /**
   * Replaces the secret of a signed endpoint with the one its sender issued (a
   * secret rolled at Stripe, or one typed wrong at creation), keeping its URL. The
   * same secret again changes nothing: restarting the grace period would push out
   * the secret still in grace, which a sender may still be signing with.
   */
  async setSecret(
    account: AccountContext,
    id: string,
    secret: string,
  ): Promise<{ id: string; previousSecretExpiresAt: string | null }> {
    const current = this.own(account, id);
    if (!requiresSecret(current.validationType)) {
      const signed = SIGNATURE_SCHEMES.filter((s) => s.secret.required).map((s) => s.id);
      throw new ConflictError(
        `Endpoint ${id} checks no signature (validationType ${current.validationType}), so it has no secret to set; ` +
          `to verify deliveries, create an endpoint of a signed type (${signed.join(', ')}).`,
        'SECRET_NOT_APPLICABLE',
        { validationType: current.validationType },
      );
    }
    checkSecretFormat(current.validationType, secret);
    if (secret === current.secret) return { id, previousSecretExpiresAt: this.graceEnd(current) };
    const next = await this.rotate(current, secret, 'secret_set');
    return { id, previousSecretExpiresAt: isoOrNull(next.previousSecretExpiresAt) };
  }

  /** The new secret verifies at once; the old one keeps verifying for the grace period so senders can roll over. */
  private async rotate(
    current: EndpointRecord,
    secret: string,
    change: 'secret_regenerated' | 'secret_set',
  ): Promise<EndpointRecord> {
    const now = this.deps.clock.now();
    const next: EndpointRecord = {
      ...current,
      secret,
      previousSecret: current.secret,
      previousSecretExpiresAt: current.secret ? now + this.deps.secretGraceMs : null,
      updatedAt: now,
    };
    await this.deps.repo.update(next);
    this.put(current.id, next);
    this.changed(next, change);
    return next;
  }

  /** When the previous secret stops verifying, or null when none verifies now. */
  private graceEnd(e: EndpointRecord): string | null {
    const live = e.previousSecretExpiresAt !== null && this.deps.clock.now() < e.previousSecretExpiresAt;
    return live ? isoOrNull(e.previousSecretExpiresAt) : null;
  }

  /**
   * Erases previous secrets whose grace period is over: nothing accepts them any
   * more, so they must not stay readable in the data directory. The engine runs
   * this at start and before every checkpoint, which (with secure_delete) leaves
   * the old secret in no file once the checkpoint is written.
   */
  async eraseExpiredSecrets(): Promise<number> {
    const now = this.deps.clock.now();
    const expired = [...this.byId.values()].filter(
      (e) => e.previousSecret !== null && e.previousSecretExpiresAt !== null && e.previousSecretExpiresAt <= now,
    );
    await this.deps.repo.erasePreviousSecrets(
      expired.map((e) => e.id),
      now,
    );
    for (const e of expired) {
      // Unless a regenerate replaced the record meanwhile (its previous secret is then a new one).
      const current = this.byId.get(e.id);
      if (current && current.previousSecret === e.previousSecret) this.put(e.id, { ...current, previousSecret: null });
    }
    return expired.length;
  }

  /**
   * Re-reads one endpoint from the database into the table (told by an
   * `endpoint.changed` event, perhaps from another instance); gone there, it
   * goes from the table too.
   */
  refresh(id: string): Promise<void> {
    this.refreshing = this.refreshing
      .catch(() => undefined)
      .then(async () => {
        const e = await this.readAfterLocalChanges(id);
        if (e && !this.deletedHere.has(id)) this.byId.set(id, e);
        else this.byId.delete(id);
      });
    return this.refreshing;
  }

  /**
   * The receiver's view of an endpoint: from the table, or on a team server,
   * when it is not there (created on another instance a moment ago), from the
   * database, and then kept in the table.
   */
  async lookup(id: string): Promise<ReceiverEndpoint | undefined> {
    if (!this.byId.has(id) && this.deps.shared) {
      const e = await this.readAfterLocalChanges(id);
      if (e && !this.byId.has(id) && !this.deletedHere.has(id)) this.byId.set(id, e);
    }
    return this.forReceiver(id);
  }

  /** A change made here: into the table, dated for readAfterLocalChanges. */
  private put(id: string, e: EndpointRecord): void {
    this.changedAt.set(id, ++this.localChanges);
    // A delete that failed puts its endpoint back.
    this.deletedHere.delete(id);
    this.byId.set(id, e);
  }

  private drop(id: string): void {
    this.changedAt.delete(id);
    this.deletedHere.add(id);
    this.byId.delete(id);
  }

  /** The endpoint as the database holds it, read again while a local change lands during the read. */
  private async readAfterLocalChanges(id: string): Promise<EndpointRecord | undefined> {
    for (;;) {
      const began = this.localChanges;
      const e = await this.deps.repo.find(id);
      if ((this.changedAt.get(id) ?? 0) <= began) return e;
    }
  }

  /** The receiver's view of an endpoint in the table, or undefined when there is none with that id. */
  forReceiver(id: string): ReceiverEndpoint | undefined {
    const e = this.byId.get(id);
    if (!e) return undefined;
    const secrets: ReceiverEndpoint['secrets'] = [];
    if (e.secret) secrets.push({ value: e.secret, kind: 'current' });
    if (e.previousSecret && e.previousSecretExpiresAt !== null && this.deps.clock.now() < e.previousSecretExpiresAt) {
      secrets.push({ value: e.previousSecret, kind: 'previous' });
    }
    return {
      id: e.id,
      accountId: e.accountId,
      validationType: e.validationType,
      isActive: e.isActive,
      secrets,
      signatureHeader: e.signatureHeader,
      toleranceSeconds: e.toleranceSeconds,
      forwardUrl: e.forwardUrl,
      customResponse: e.customResponse,
    };
  }

  /** Only the id and the kind of change: the secret must never reach an event (events are kept for resume). */
  private changed(e: EndpointRecord, change: EndpointChanged['change']): void {
    this.deps.events.publish(e.accountId, 'endpoint.changed', { endpointId: e.id, change });
  }

  private view(e: EndpointRecord): EndpointView {
    const localUrl = `${this.deps.urls.receiver}/webhook/${e.id}`;
    const publicUrl = this.deps.urls.publicBase ? `${this.deps.urls.publicBase}/webhook/${e.id}` : null;
    return {
      id: e.id,
      url: publicUrl ?? localUrl,
      localUrl,
      publicUrl,
      name: e.name,
      description: e.description,
      validationType: e.validationType,
      isActive: e.isActive,
      signatureHeader: e.signatureHeader,
      toleranceSeconds: e.toleranceSeconds,
      forwardUrl: e.forwardUrl,
      customResponse: e.customResponse,
      hasSecret: e.secret !== null,
      previousSecretExpiresAt: this.graceEnd(e),
      createdAt: isoTime(e.createdAt),
      updatedAt: isoTime(e.updatedAt),
    };
  }
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : isoTime(ms));

/** signatureHeader belongs to the schemes that let an endpoint name it (the generic HMAC), toleranceSeconds to those that sign a timestamp. */
function checkSchemeOptions(
  type: ValidationType,
  input: { signatureHeader?: string | null; toleranceSeconds?: number | null },
): void {
  if (input.signatureHeader != null && !schemeFor(type).customSignatureHeader) {
    const named = SIGNATURE_SCHEMES.filter((s) => s.customSignatureHeader).map((s) => s.id);
    throw new ValidationError(`signatureHeader applies only to ${named.join(', ')} endpoints (this one is ${type}).`, {
      field: 'signatureHeader',
    });
  }
  if (input.toleranceSeconds != null && !hasTimestamp(type)) {
    throw new ValidationError(
      `toleranceSeconds applies only to endpoints whose scheme signs a timestamp (${TIMESTAMPED_TYPES.join(', ')}); ${type} has none.`,
      { field: 'toleranceSeconds' },
    );
  }
}

/** A secret the scheme cannot derive a key from would make every delivery fail; refuse it up front. */
function checkSecretFormat(type: ValidationType, secret: string): void {
  const problem = schemeFor(type).secret.problem(secret);
  if (problem !== null) throw new ValidationError(problem, { field: 'webhookSecret' });
}
