/**
 * A setting the engine or the CLI cannot start with: a flag, an environment
 * variable or config.json. Not an HTTP error (no status, no envelope): it stops
 * start-up before any listener exists, and the CLI prints its message as a usage
 * error. `source` names where the bad value came from (`HOOKSCOPE_SYNC`,
 * `--subdomain`, `config.json`).
 */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly source: string,
    readonly issues?: readonly unknown[],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}
