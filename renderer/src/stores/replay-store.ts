import { createStore } from 'zustand/vanilla';
import { ApiError, type ApiClient, type ApiSchemas, type RequestBody } from '../api/client.ts';
import type { ApiData } from '../../../server/api-client/api-client.ts';
import { isRecord } from '../../../server/api-client/api-error.ts';
import { replayRoute } from '../lib/replay-route.ts';
import { offeredTarget, parseUsedTarget, type UsedTarget } from '../lib/replay-target.ts';
import type { DesktopBridge, DesktopEngine } from './desktop-store.ts';
import type { NoticesState } from './notices-store.ts';

export type ReplayResult = ApiSchemas['ReplayDetail'];
/** One attempt read back: the request as sent (body included) and the response. */
export type ReplayExchange = ApiSchemas['ReplayExchange'];
export type ReplayRequest = RequestBody<'/api/replay/{webhookLogId}', 'post'>;
export type HistoryEntry = ApiSchemas['ReplayHistoryEntry'];
export type ReplayDiff = ApiData<'/api/replay/{webhookLogId}/diff', 'get'>;

const targetKey = (endpointId: string): string => `hookscope.replayTarget.${endpointId}`;
/** The target used last for any endpoint: what an endpoint never replayed yet is offered. */
const LAST_TARGET_KEY = 'hookscope.lastReplayTarget';

/** The newest attempts shown, as many as the engine's first history page holds. */
const HISTORY_SHOWN = 50;

/** A replay's answer as its history entry (what `replay.completed` carries): the exchange itself stays out. */
function entryOf(r: ReplayResult): HistoryEntry {
  const { id, logId, endpointId, targetUrl, method, status, responseTime, error, trigger, createdAt, edited } = r;
  return { id, logId, endpointId, targetUrl, method, status, responseTime, error, trigger, createdAt, edited };
}

/**
 * The attempt an error answer recorded: a target that did not answer (502
 * TARGET_UNREACHABLE, 504 TARGET_TIMEOUT) is still an attempt, named in `details.replayId`.
 */
function recordedAttempt(e: unknown): string | null {
  if (!(e instanceof ApiError) || !isRecord(e.details)) return null;
  return typeof e.details.replayId === 'string' ? e.details.replayId : null;
}

/** The desktop app, for replays it sends from this computer: its bridge, and the engine the window shows now. */
export interface DesktopSender {
  bridge: Pick<DesktopBridge, 'sendFromThisComputer'>;
  engine(): DesktopEngine | null;
}

export interface ReplayState {
  /** The log the panel is about; results and history belong to it. */
  logId: string | null;
  sending: boolean;
  result: ReplayResult | null;
  history: HistoryEntry[];
  /** Two of the log's replays compared (b with a), shown under the history. */
  diff: ReplayDiff | null;
  /** One attempt of the open history read back (request as sent, and response), shown beside it. */
  exchange: ReplayExchange | null;
  /**
   * The target offered for a delivery of an endpoint: the most recent one used for
   * that endpoint, else for any (a preference, not a credential: localStorage).
   */
  targetFor(endpointId: string, subPath: string): string;
  open(logId: string): Promise<void>;
  /** Reads the open history again (after a reconnection: attempts made while away). */
  refresh(): Promise<void>;
  /**
   * An attempt was recorded (a `replay.completed` event, or this page's own replay
   * answered): it goes on top of the open history, once, without asking the engine.
   */
  completed(entry: HistoryEntry): void;
  /**
   * Replays the log and shows the outcome: the target's answer, or why there was
   * none (refused, timed out, no such host), which the engine recorded too.
   * `subPath` is the delivery's, remembered with the target. In the desktop app
   * showing a team server, a target on this computer is sent by the app
   * (lib/replay-route.ts) and reported to the engine, which records it the same way.
   */
  send(logId: string, endpointId: string, subPath: string, request: ReplayRequest): Promise<void>;
  /** Reads one attempt of the open log back: the request as sent, beside its response. */
  showExchange(logId: string, replayId: string): Promise<void>;
  closeExchange(): void;
  /** The engine's diff of two replays of the log: status, headers, body (b compared with a). */
  compare(logId: string, a: string, b: string): Promise<void>;
  closeDiff(): void;
}

export const createReplayStore = (
  client: ApiClient,
  notices: Pick<NoticesState, 'error'>,
  storage: Pick<Storage, 'getItem' | 'setItem'>,
  desktop: DesktopSender | null = null,
) =>
  createStore<ReplayState>()((set, get) => {
    const loadHistory = async (logId: string): Promise<void> => {
      try {
        const page = await client.get('/api/replay/{webhookLogId}/history', {
          params: { path: { webhookLogId: logId }, query: { limit: String(HISTORY_SHOWN) } },
        });
        if (get().logId === logId) set({ history: page.history });
      } catch (e) {
        notices.error('Loading the replay history', e);
      }
    };
    const readAttempt = (logId: string, replayId: string): Promise<ReplayExchange> =>
      client.get('/api/replay/{webhookLogId}/replays/{replayId}', {
        params: { path: { webhookLogId: logId, replayId } },
      });
    /** The outcome of this page's replay, on top of the history too (its event may come before or after). */
    const shown = (logId: string, result: ReplayResult): void => {
      if (get().logId === logId) set({ result });
      get().completed(entryOf(result));
    };
    const remembered = (key: string): UsedTarget | null => parseUsedTarget(storage.getItem(key));
    /**
     * A replay the team server cannot send (it cannot reach this computer): the engine builds the request
     * (re-signed, edited), the desktop app sends it, the engine records what came back. A refusal of the
     * app is thrown as its sentence; the engine's errors as they come.
     */
    const sendFromThisComputer = async (
      sender: DesktopSender,
      logId: string,
      request: ReplayRequest,
    ): Promise<ReplayResult> => {
      const params = { path: { webhookLogId: logId } };
      const { targetUrl, timeoutMs, ...edits } = request;
      const outgoing = await client.post('/api/replay/{webhookLogId}/outgoing', {
        params,
        body: { targetUrl, ...edits },
      });
      const answer = await sender.bridge.sendFromThisComputer({
        method: outgoing.method,
        // To the target as typed, as the engine's own replay sends (outgoing joins the delivery's sub-path
        // and query for `hookscope listen`); the host is the same, so is the Host header it wrote.
        url: targetUrl,
        headers: outgoing.headers,
        body: outgoing.body,
        bodyEncoding: outgoing.bodyEncoding,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      });
      if (!answer.ok) throw new Error(answer.error);
      const r = answer.result;
      return client.post('/api/replay/{webhookLogId}/sent', {
        params,
        body: {
          targetUrl,
          method: outgoing.method,
          requestHeaders: outgoing.headers,
          // The body is reported only when the user changed it; otherwise the engine has the log's bytes.
          ...(edits.body === undefined ? {} : { body: outgoing.body, bodyEncoding: outgoing.bodyEncoding }),
          edited: outgoing.edited,
          status: r.status,
          responseTime: r.responseTime,
          responseHeaders: r.responseHeaders,
          responseBody: r.responseBody,
          responseTruncated: r.responseTruncated,
          error: r.error,
        },
      });
    };
    return {
      logId: null,
      sending: false,
      result: null,
      history: [],
      diff: null,
      exchange: null,
      targetFor: (endpointId, subPath) =>
        offeredTarget(remembered(targetKey(endpointId)) ?? remembered(LAST_TARGET_KEY), subPath),
      open: async (logId) => {
        if (get().logId !== logId) set({ logId, result: null, history: [], diff: null, exchange: null });
        await loadHistory(logId);
      },
      refresh: async () => {
        const logId = get().logId;
        if (logId !== null) await loadHistory(logId);
      },
      completed: (entry) =>
        set((s) => {
          if (s.logId !== entry.logId || s.history.some((h) => h.id === entry.id)) return s;
          // Newest first, as the engine lists them: an answer and an event may arrive in either order.
          const at = s.history.findIndex((h) => h.createdAt <= entry.createdAt);
          const history = at === -1 ? [...s.history, entry] : s.history.toSpliced(at, 0, entry);
          return { history: history.slice(0, HISTORY_SHOWN) };
        }),
      send: async (logId, endpointId, subPath, request) => {
        // Remembered when used, whatever the target answers: the most recent one is offered next.
        const used = JSON.stringify({ target: request.targetUrl, subPath } satisfies UsedTarget);
        storage.setItem(targetKey(endpointId), used);
        storage.setItem(LAST_TARGET_KEY, used);
        set({ sending: true });
        try {
          shown(
            logId,
            desktop && replayRoute(desktop.engine(), request.targetUrl) === 'this-computer'
              ? await sendFromThisComputer(desktop, logId, request)
              : await client.post('/api/replay/{webhookLogId}', {
                  params: { path: { webhookLogId: logId } },
                  body: request,
                }),
          );
        } catch (e) {
          // A target that did not answer is an outcome like any other: the engine recorded the
          // attempt, which is read back and shown in its place rather than only told in a notice.
          const replayId = recordedAttempt(e);
          const attempt = replayId === null ? null : await readAttempt(logId, replayId).catch(() => null);
          if (attempt === null) notices.error('Replay', e);
          else shown(logId, attempt);
        } finally {
          set({ sending: false });
        }
      },
      showExchange: async (logId, replayId) => {
        try {
          const exchange = await readAttempt(logId, replayId);
          if (get().logId === logId) set({ exchange });
        } catch (e) {
          notices.error('Opening the replay', e);
        }
      },
      closeExchange: () => set({ exchange: null }),
      compare: async (logId, a, b) => {
        try {
          const diff = await client.get('/api/replay/{webhookLogId}/diff', {
            params: { path: { webhookLogId: logId }, query: { a, b } },
          });
          if (get().logId === logId) set({ diff });
        } catch (e) {
          notices.error('Comparing the replays', e);
        }
      },
      closeDiff: () => set({ diff: null }),
    };
  });
