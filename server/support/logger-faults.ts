import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';

/** Where a fault happened: small, non-secret fields only (never a body, header or query). */
export type FaultContext = Record<string, string | number | undefined>;

/**
 * Logs an unexpected error with a fresh error id and returns that id, which a
 * 500 hands to the client so an operator can find the line (and its stack).
 */
export type ReportFault = (err: unknown, context?: FaultContext) => string;

export interface FaultReporterDeps {
  logger: Logger;
  /** A fresh error id (randomness injected: `IdGenerator.opaque('err', 16)`). */
  newId: () => string;
  /** Also told about every fault (tests, the desktop shell). */
  onFault?: (err: unknown, errorId: string) => void;
}

export function faultReporter(deps: FaultReporterDeps): ReportFault {
  return (err, context = {}) => {
    const errorId = deps.newId();
    deps.logger.error({ errorId, ...context, err: asError(err) }, 'unexpected error');
    deps.onFault?.(err, errorId);
    return errorId;
  };
}

/**
 * A request named for the log: method and path without the query string (which
 * may carry tokens), and with a share link's token, itself a credential, masked.
 */
export function requestContext(req: IncomingMessage, listener: string): FaultContext {
  const path = (req.url ?? '').split('?')[0]!;
  return { listener, method: req.method, path: path.startsWith('/share/') ? '/share/<token>' : path };
}

// Only the type of a thrown non-Error: its contents could be anything, a body included.
function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(`A non-Error value (${typeof err}) was thrown.`);
}
