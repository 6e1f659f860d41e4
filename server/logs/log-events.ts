import { z } from 'zod';

/**
 * What can change about a stored log after it arrived (its bytes never change):
 * a stored analysis, its share link, a manual replay, a forward attempt. A closed
 * list, so a subscriber's switch is exhaustive; `pinned` joins it when logs can be
 * pinned, and a client must ignore a value it does not know.
 */
export const LOG_UPDATE_CHANGES = ['analysis', 'share', 'replay', 'forward'] as const;

/** The `log.updated` event: which log changed and in what respect; refetch what that view shows. */
export const LogUpdatedSchema = z
  .object({
    logId: z.string(),
    endpointId: z.string(),
    change: z.enum(LOG_UPDATE_CHANGES).meta({
      description:
        'analysis: an analysis was stored; share: its share link was created, replaced or revoked; ' +
        'replay: a manual replay was recorded; forward: a forward attempt was recorded.',
    }),
  })
  .meta({ id: 'LogUpdated' });

export type LogUpdated = z.output<typeof LogUpdatedSchema>;
