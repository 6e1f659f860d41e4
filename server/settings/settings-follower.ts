import type { JsonObject } from './config-file.ts';
import type { SharedSettingsRepository } from './shared-settings-repository.ts';

export interface SettingsFollowerDeps {
  repo: SharedSettingsRepository;
  /** Applies a saved document when `read` answers one (SettingsService.adopt). */
  adopt: (read: () => Promise<JsonObject | null>) => Promise<void>;
  /** How often the database is asked for a newer save. */
  pollMs: number;
  onError: (err: unknown) => void;
}

/**
 * Keeps a team server instance's running settings on what any instance saved:
 * reads the database's settings at start (over config.json's values), then
 * every `pollMs`, and applies a document only when its version is new.
 */
export class SettingsFollower {
  private seen: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;

  constructor(private readonly deps: SettingsFollowerDeps) {}

  async start(): Promise<void> {
    await this.poll();
    this.timer = setInterval(() => {
      // A slow database never stacks polls: a tick while one runs is skipped.
      this.polling ??= this.poll()
        .catch(this.deps.onError)
        .finally(() => {
          this.polling = null;
        });
    }, this.deps.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.polling;
  }

  private poll(): Promise<void> {
    return this.deps.adopt(async () => {
      const saved = await this.deps.repo.read();
      if (saved.version === this.seen) return null;
      this.seen = saved.version;
      return saved.document;
    });
  }
}
