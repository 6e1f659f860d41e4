/**
 * `manual`: a user asked (API, UI, CLI); `forward`: the endpoint's forwardUrl, as the
 * delivery arrived; `client`: sent by a client (the desktop app) from its own machine,
 * reported to the engine (POST /api/replay/:webhookLogId/sent), since a team server
 * cannot reach a laptop's localhost.
 */
export const REPLAY_TRIGGERS = ['manual', 'forward', 'client'] as const;
export type ReplayTrigger = (typeof REPLAY_TRIGGERS)[number];

/** An endpoint's forward queue: nothing to do, sending, waiting to retry, or no forwardUrl. */
export const FORWARD_STATES = ['idle', 'delivering', 'retrying', 'disabled'] as const;
export type ForwardState = (typeof FORWARD_STATES)[number];
