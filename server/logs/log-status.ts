/** A stored delivery's outcome: what the receiver answered and the API filters on. */
export const LOG_STATUSES = ['success', 'failed'] as const;
export type LogStatus = (typeof LOG_STATUSES)[number];
