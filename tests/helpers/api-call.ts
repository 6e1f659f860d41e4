import assert from 'node:assert/strict';

/**
 * A JSON call to a running engine's API with a bearer token; answers the
 * envelope's data and fails the test, naming the call, on anything but success.
 */
export function apiCaller(apiUrl: () => string, token: () => string) {
  return async (method: string, path: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${apiUrl()}${path}`, {
      method,
      headers: { authorization: `Bearer ${token()}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { success: boolean; data: any };
    assert.ok(json.success, `${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
}
