import { InvalidArgumentError, type Command } from 'commander';
import { MAX_DELETE_IDS } from '../../api-client/shared.ts';
import { connect, withClientOptions, type ClientOptions, type RunAction } from '../client-options.ts';
import { EXIT, type CliIO } from '../cli-output.ts';
import { printJson } from '../render.ts';

/** `logs pin|unpin|delete|clear`: what a user does to stored deliveries, next to `logs list` and `logs show`. */
export function registerLogsManage(logs: Command, io: CliIO, run: RunAction): void {
  for (const [name, pinned] of [
    ['pin', true],
    ['unpin', false],
  ] as const) {
    withClientOptions(
      logs
        .command(name)
        .description(pinned ? 'Pin a delivery: retention never evicts it' : 'Unpin a delivery: retention may evict it')
        .argument('<logId>', 'log id (log_...)'),
    ).action((logId: string, opts: ClientOptions) => run(() => setPinned(logId, pinned, opts, io)));
  }

  withClientOptions(
    logs
      .command('delete')
      .description(
        `Delete deliveries by id (at most ${MAX_DELETE_IDS}), with their share links, analyses and replay history`,
      )
      .argument('<logId...>', 'log ids (log_...)', collectIds),
  ).action((ids: string[], opts: ClientOptions) => run(() => remove(ids, opts, io)));

  withClientOptions(
    logs
      .command('clear')
      .description("Delete an endpoint's deliveries, except the pinned ones (the endpoint stays)")
      .argument('<endpointId>', 'endpoint id (ep_...)'),
  ).action((endpointId: string, opts: ClientOptions) => run(() => clear(endpointId, opts, io)));
}

/** Commander calls this once per variadic value; the limit is checked before any request (exit 2). */
function collectIds(value: string, previous: string[] | undefined): string[] {
  const ids = [...(previous ?? []), value];
  if (ids.length > MAX_DELETE_IDS) throw new InvalidArgumentError(`At most ${MAX_DELETE_IDS} log ids at once.`);
  return ids;
}

async function setPinned(logId: string, pinned: boolean, opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const log = await api.patch('/api/webhooks/logs/{logId}', { params: { path: { logId } }, body: { pinned } });
  if (opts.json) printJson(io, log);
  else io.out(pinned ? `Pinned ${log.id}: retention never evicts it.` : `Unpinned ${log.id}.`);
  return EXIT.ok;
}

/** Exit 1 when any id named no log of the account: the others are deleted all the same. */
async function remove(ids: string[], opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const result = await api.post('/api/webhooks/logs/delete', { body: { ids } });
  if (opts.json) printJson(io, result);
  else io.out(`Deleted ${result.deleted} ${result.deleted === 1 ? 'log' : 'logs'}.`);
  if (result.notFound.length > 0) io.err(`hookscope: not found: ${result.notFound.join(', ')}`);
  return result.notFound.length > 0 ? EXIT.failure : EXIT.ok;
}

async function clear(endpointId: string, opts: ClientOptions, io: CliIO): Promise<number> {
  const api = await connect(opts, io);
  const result = await api.delete('/api/endpoints/{endpointId}/logs', { params: { path: { endpointId } } });
  if (opts.json) {
    printJson(io, result);
    return EXIT.ok;
  }
  const kept = result.pinnedKept > 0 ? ` (kept ${result.pinnedKept} pinned)` : '';
  io.out(`Deleted ${result.deleted} ${result.deleted === 1 ? 'log' : 'logs'} of ${result.endpointId}${kept}.`);
  return EXIT.ok;
}
