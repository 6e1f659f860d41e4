import type { Creator as HarCreator } from 'har-format';
import type { AccountContext } from '../auth/account-context.ts';
import { detailView } from '../logs/log-views.ts';
import type { LogsService, StoredLogWithBody } from '../logs/logs-service.ts';
import { redactLog } from '../share/redaction.ts';
import type { BaseUrls } from '../support/base-urls.ts';
import { assertNever } from '../support/assert-never.ts';
import { buildCurl } from './curl-builder.ts';
import type { ExportRequest } from './export-types.ts';
import type { ExportResult } from './export-schemas.ts';
import { buildHar } from './har-builder.ts';
import { buildHttpMessage } from './http-builder.ts';
import { originalUrl } from './request-parts.ts';

export interface ExportServiceDeps {
  logs: Pick<LogsService, 'find'>;
  urls: BaseUrls;
  creator: HarCreator;
}

/** Turns one stored delivery into a file: a cURL command, raw HTTP, JSON or HAR. */
export class ExportService {
  constructor(private readonly deps: ExportServiceDeps) {}

  async export(account: AccountContext, logId: string, req: ExportRequest): Promise<ExportResult> {
    const stored = await this.deps.logs.find(account, logId);
    const d = req.redact ? redactLog(stored) : stored;
    return exportLog(d, req.target ?? this.defaultTarget(d), req.format, this.deps.creator);
  }

  /** The endpoint's local receiver URL with the original sub-path and query. */
  defaultTarget(d: Pick<StoredLogWithBody, 'endpointId' | 'path' | 'query'>): string {
    return originalUrl(this.deps.urls.receiver, d);
  }
}

/** The pure part: a stored log and a URL into the chosen file (the JSON file is the log as the API's detail shows it). */
export function exportLog(
  d: StoredLogWithBody,
  url: string,
  format: ExportRequest['format'],
  creator: HarCreator,
): ExportResult {
  const base = d.id;
  switch (format) {
    case 'curl':
      return text('curl', `${base}.sh`, 'text/x-shellscript; charset=utf-8', `${buildCurl(d, url)}\n`);
    case 'json':
      return text(
        'json',
        `${base}.json`,
        'application/json; charset=utf-8',
        `${JSON.stringify(detailView(d), null, 2)}\n`,
      );
    case 'har':
      return text(
        'har',
        `${base}.har`,
        'application/json; charset=utf-8',
        `${JSON.stringify(buildHar(d, url, creator), null, 2)}\n`,
      );
    case 'http': {
      const m = buildHttpMessage(d, url);
      return m.text !== null
        ? text('http', `${base}.http`, 'message/http', m.text)
        : {
            format,
            filename: `${base}.http`,
            contentType: 'message/http',
            contentEncoding: 'base64',
            content: m.bytes.toString('base64'),
          };
    }
    default:
      return assertNever(format, 'export format');
  }
}

const text = (
  format: ExportResult['format'],
  filename: string,
  contentType: string,
  content: string,
): ExportResult => ({
  format,
  filename,
  contentType,
  contentEncoding: 'utf8',
  content,
});
