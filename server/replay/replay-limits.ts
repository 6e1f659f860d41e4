// Limits of a replay request, apart from its zod schema so the CLI can name
// them in --help without loading zod.
export const REPLAY_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const MAX_TIMEOUT_MS = 120_000;
