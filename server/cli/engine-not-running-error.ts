/** No engine to talk to (no runtime.json, a stale one, or an address that does not answer). */
export class EngineNotRunningError extends Error {
  constructor(
    readonly dataDir: string,
    reason?: string,
  ) {
    super(
      `No Hookscope engine is running for ${dataDir}; start one with \`npx hookscope serve\`${reason ? ` (${reason})` : ''}`,
    );
    this.name = 'EngineNotRunningError';
  }
}
