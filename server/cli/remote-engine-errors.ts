/** An engine named by URL that cannot be used as it is: one sentence saying what to do. */
export class RemoteEngineError extends Error {
  override name = 'RemoteEngineError';
}

/**
 * No answer from the engine, or only its proxy's 5xx: it may come back (`tail` waits for it).
 * In a file of its own so that `tail`, loaded for every `--help`, does not load the API client.
 */
export class EngineUnreachableError extends RemoteEngineError {
  override name = 'EngineUnreachableError';
}
