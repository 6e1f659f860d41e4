import type { StoredReplay } from '../../server/replay/replay-types.ts';

/** A replay attempt as a repository stores it: a manual POST to a closed local port that got 500, unless `over` says otherwise. */
export const storedReplay = (over: Partial<StoredReplay> & Pick<StoredReplay, 'id' | 'createdAt'>): StoredReplay => ({
  accountId: 'acc_a',
  logId: '',
  endpointId: 'ep_1',
  targetUrl: 'http://127.0.0.1:1/',
  method: 'POST',
  status: 500,
  responseTime: 3,
  error: null,
  trigger: 'manual',
  edited: false,
  requestHeaders: [],
  requestBody: null,
  requestBodySize: null,
  responseHeaders: [],
  responseBody: Buffer.alloc(0),
  responseTruncated: false,
  ...over,
});
