import { z } from 'zod';

/**
 * What can change about a stored log after it arrived (its bytes never change):
 * a stored analysis, its share link, a manual replay, a forward attempt, its pin,
 * whether Explain applies to it. A closed list, so a subscriber's switch is
 * exhaustive; a client must ignore a value it does not know (the list may grow).
 */
export const LOG_UPDATE_CHANGES = ['analysis', 'share', 'replay', 'forward', 'pinned', 'explainable'] as const;

/** The `log.updated` event: which log changed and in what respect; refetch what that view shows. */
export const LogUpdatedSchema = z
  .object({
    logId: z.string(),
    endpointId: z.string(),
    change: z.enum(LOG_UPDATE_CHANGES).meta({
      description:
        'analysis: an analysis was stored; share: its share link was created, replaced or revoked; ' +
        'replay: a manual replay was recorded; forward: a forward attempt was recorded; ' +
        'pinned: it was pinned or unpinned; explainable: a replay or forward of it changed whether it can be ' +
        'explained (the new value is `explainable`; no refetch needed).',
    }),
    explainable: z.boolean().optional().meta({
      description:
        "With change explainable only: the log detail's new `explainable` (POST .../analyze has something to say).",
    }),
  })
  .meta({ id: 'LogUpdated' });

export type LogUpdated = z.output<typeof LogUpdatedSchema>;

/**
 * The `log.deleted` event: logs a user deleted (one, many by id, or an endpoint's
 * clear), one event per endpoint, naming every deleted log so a live list drops
 * exactly those rows. Retention's evictions and an endpoint's deletion publish no
 * such event (`endpoint.changed` says the latter).
 */
export const LogDeletedSchema = z
  .object({
    endpointId: z.string(),
    logIds: z.array(z.string()).meta({ description: "The deleted logs, all of this endpoint's." }),
    cleared: z.boolean().meta({
      description:
        "true when the endpoint's logs were cleared (DELETE /api/endpoints/{endpointId}/logs): logIds are all its " +
        'unpinned logs when the clear began; pinned ones and deliveries that arrived meanwhile were kept.',
    }),
  })
  .meta({ id: 'LogDeleted' });

export type LogDeleted = z.output<typeof LogDeletedSchema>;
