import { detailView } from '../logs/log-views.ts';
import type { LogDetail } from '../logs/logs-schemas.ts';
import { isoTime } from '../support/clock.ts';
import type { ShareView } from './share-schemas.ts';
import type { CreatedShare, OpenedShare } from './share-service.ts';

/** A link just made, as POST /share answers it. */
export function shareView(s: CreatedShare): ShareView {
  return { ...s, expiresAt: isoTime(s.expiresAt), createdAt: isoTime(s.createdAt) };
}

/** A shared log as its page and its JSON show it. */
export interface SharedLogView {
  log: LogDetail;
  expiresAt: string;
  redacted: boolean;
  pathRedacted: boolean;
}

export function sharedLogView(o: OpenedShare): SharedLogView {
  return {
    log: detailView(o.log),
    expiresAt: isoTime(o.expiresAt),
    redacted: o.redacted,
    pathRedacted: o.pathRedacted,
  };
}
