import { lookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { ProbeTimeouts } from './diagnose-types.ts';
import type { DestinationChecks, ProbeStep } from './diagnose-schemas.ts';

const since = (start: number): number => Math.round((performance.now() - start) * 10) / 10;
const skipped = (why: string): ProbeStep => ({ ok: false, ms: null, error: `skipped: ${why}` });

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** One sentence a developer can act on, from a socket error. */
function describe(err: unknown, host: string, port: number): string {
  // With happy eyeballs (autoSelectFamily) every address may fail: report the first cause.
  const e = (err instanceof AggregateError && err.errors.length > 0 ? err.errors[0] : err) as NodeJS.ErrnoException;
  switch (e?.code) {
    case 'ECONNREFUSED':
      return `Connection refused by ${host}:${port} (ECONNREFUSED): nothing is listening on that port. Is your server running?`;
    case 'ECONNRESET':
      return `The connection to ${host}:${port} was reset (ECONNRESET).`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${host}:${port} is unreachable from this machine (${e.code}).`;
    case 'ETIMEDOUT':
      return `Connecting to ${host}:${port} timed out (ETIMEDOUT).`;
    default:
      return e instanceof Error
        ? `${e.message}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`
        : String(err);
  }
}

async function checkDns(host: string, ms: number): Promise<DestinationChecks['dns']> {
  const start = performance.now();
  try {
    const found = await withTimeout(
      lookup(host, { all: true }),
      ms,
      `DNS lookup of ${host} took longer than ${ms} ms.`,
    );
    return { ok: true, addresses: found.map((a) => a.address), ms: since(start), error: null };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const error =
      code === 'ENOTFOUND'
        ? `${host} does not resolve (ENOTFOUND): check the spelling, or the DNS name is not public.`
        : describe(e, host, 0);
    return { ok: false, addresses: [], ms: since(start), error };
  }
}

function checkConnect(host: string, port: number, ms: number): Promise<ProbeStep> {
  const start = performance.now();
  return new Promise((resolve) => {
    const socket = connect({ host, port, autoSelectFamily: true });
    const done = (step: ProbeStep): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(step);
    };
    const timer = setTimeout(
      () =>
        done({
          ok: false,
          ms: since(start),
          error: `No TCP answer from ${host}:${port} within ${ms} ms: a firewall drops the packets, or the host is down.`,
        }),
      ms,
    );
    socket.once('connect', () => done({ ok: true, ms: since(start), error: null }));
    socket.once('error', (e) => done({ ok: false, ms: since(start), error: describe(e, host, port) }));
  });
}

function httpOnce(url: URL, method: 'HEAD' | 'GET', ms: number): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, { method, agent: false, headers: { 'user-agent': 'hookscope-diagnose', accept: '*/*' } });
    const timer = setTimeout(() => req.destroy(new Error(`No HTTP response within ${ms} ms.`)), ms);
    req.once('response', (res) => {
      clearTimeout(timer);
      res.resume();
      res.once('error', () => undefined);
      req.destroy();
      resolve(res);
    });
    req.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.end();
  });
}

async function checkHttp(url: URL, host: string, port: number, ms: number): Promise<DestinationChecks['http']> {
  const start = performance.now();
  try {
    let method: 'HEAD' | 'GET' = 'HEAD';
    let res = await httpOnce(url, method, ms);
    // Some frameworks refuse HEAD; a GET answers the question "does HTTP work there" all the same.
    if (res.statusCode === 405 || res.statusCode === 501) {
      method = 'GET';
      res = await httpOnce(url, method, ms);
    }
    return { ok: true, status: res.statusCode ?? null, method, ms: since(start), error: null };
  } catch (e) {
    return { ok: false, status: null, method: null, ms: since(start), error: describe(e, host, port) };
  }
}

/**
 * DNS, then TCP connect, then one HTTP request, each with its own time limit;
 * a failed step skips the ones after it. Sends HEAD (GET when HEAD is refused),
 * never the delivery itself: diagnose must not have side effects on the target.
 */
export async function checkDestination(
  target: string,
  source: DestinationChecks['source'],
  t: ProbeTimeouts,
): Promise<DestinationChecks> {
  const url = new URL(target);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const dns = await checkDns(host, t.dnsMs);
  if (!dns.ok) {
    return {
      url: target,
      source,
      dns,
      connect: skipped('DNS lookup failed'),
      http: { ...skipped('DNS lookup failed'), status: null, method: null },
    };
  }
  const tcp = await checkConnect(host, port, t.connectMs);
  if (!tcp.ok) {
    return {
      url: target,
      source,
      dns,
      connect: tcp,
      http: { ...skipped('TCP connect failed'), status: null, method: null },
    };
  }
  return { url: target, source, dns, connect: tcp, http: await checkHttp(url, host, port, t.httpMs) };
}
