// The flood's goal rows and its own section of the results.
import { floodVerdicts, type FloodResult } from './flood.bench.ts';
import { fmt, ms, verdict } from './report-format.ts';

const mb = (n: number): string => `${fmt(n)} MB`;

function sent(f: FloodResult): string {
  const answered = f.load.ok + f.load.non2xx;
  const why =
    f.stoppedBy === 'done'
      ? 'all sent'
      : f.stoppedBy === 'time'
        ? `**stopped by the ${f.options.maxSendSeconds} s cap**`
        : `**stopped: the engine passed ${fmt(f.options.rssGuardMb)} MB resident**`;
  return `${fmt(answered)} of ${fmt(f.options.deliveries)} answered in ${fmt(f.sendMs / 1000, 1)} s (${why})`;
}

function listedText(f: FloodResult): string {
  if (f.listed !== null) return `${fmt(f.listed)} (after ${ms(f.listWaitMs)})`;
  if (f.guardHit) return `not waited for: the engine passed ${fmt(f.options.rssGuardMb)} MB resident`;
  return `no answer within ${fmt(f.options.catchUpLimitMs / 1000)} s`;
}

export function floodGoalRows(f: FloodResult): string[] {
  const v = floodVerdicts(f);
  const n = fmt(f.options.deliveries);
  const keep = fmt(f.retention.maxLogsPerAccount);
  const expected = Math.min(f.load.ok, f.retention.maxLogsPerAccount);
  const checkpointMb = f.checkpointBytes / (1024 * 1024);
  return [
    `| Flood of ${n} deliveries, default retention: peak resident memory | ${mb(f.rss.peakMb)}; ${sent(f)} | < 500 MB | ${verdict(v.memory)} |`,
    `| Flood: data directory bounded | peak ${mb(f.dir.peakMb)} (first half of the sending ${mb(f.dir.firstHalfPeakMb)}, second half ${mb(f.dir.secondHalfPeakMb)}), at the end ${mb(f.dir.finalMb)} | peak <= ${mb(f.boundMb)}, second half <= first half + ${mb(checkpointMb)} | ${verdict(v.bounded)} |`,
    `| Flood: logs the API lists afterwards | ${listedText(f)} | ${fmt(expected)} (retention keeps ${keep}) | ${verdict(v.listed)} |`,
  ];
}

export function renderFlood(f: FloodResult): string {
  const l = f.load;
  const others = Object.entries(l.statuses).filter(([code]) => !code.startsWith('2'));
  const checkpointMb = f.checkpointBytes / (1024 * 1024);
  return [
    `### Flood (${fmt(f.options.deliveries)} deliveries to one endpoint, ${f.options.connections} connections, default retention)`,
    '',
    '| Measure | Figure |',
    '| --- | --- |',
    `| Sent | ${sent(f)}; ${fmt(l.ok / (f.sendMs / 1000))} 2xx/s |`,
    `| Answers | 2xx ${fmt(l.ok)}; other statuses ${others.length === 0 ? 'none' : others.map(([code, c]) => `${code}: ${fmt(c)}`).join(', ')}; errors ${fmt(l.errors)}, timeouts ${fmt(l.timeouts)} |`,
    `| 2xx latency | p50 ${l.p50} ms, p99 ${l.p99} ms, max ${l.max} ms |`,
    `| Engine resident memory (every ${f.options.rssEveryMs} ms) | peak ${mb(f.rss.peakMb)}; at the end of the sending ${mb(f.rss.sendEndMb)}; at the end ${mb(f.rss.finalMb)} |`,
    `| Data directory (every ${fmt(f.options.sizeEveryMs / 1000, 1)} s, ${f.dir.samples} samples) | peak ${mb(f.dir.peakMb)}; first half of the sending ${mb(f.dir.firstHalfPeakMb)}, second half ${mb(f.dir.secondHalfPeakMb)}; at the end of the sending ${mb(f.dir.sendEndMb)}; at the end ${mb(f.dir.finalMb)}; after a clean stop ${f.dir.afterStopMb === null ? 'n/a (killed)' : mb(f.dir.afterStopMb)} |`,
    `| Logs the API lists afterwards | ${listedText(f)} |`,
    '',
    `The retention is the default (${fmt(f.retention.maxLogsPerAccount)} logs, ${mb(f.retention.maxBodyBytesPerAccount / (1024 * 1024))} of bodies per account); ` +
      'the rate limiter is off, as in the other parts. "At the end" is once the list answered (the store had applied every delivery) or its wait ran out. ' +
      `The data directory's bound is twice the checkpoint threshold (${mb(checkpointMb)}: the journal fills up to it, and a new segment starts while a checkpoint writes) ` +
      `plus four times the bodies retention keeps (${fmt(f.retention.maxLogsPerAccount)} x ${fmt(f.deliveryBytes)} B: a log's row, headers and indexes take about as much again, ` +
      'and a checkpoint writes the new snapshot next to the old one), and the second half of the sending may not peak more than one checkpoint threshold above the first. ' +
      'The memory and data-directory goals count as met only when every delivery was sent.',
    '',
  ].join('\n');
}
