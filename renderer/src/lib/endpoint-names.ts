/** What a row in "All endpoints" says its endpoint is. */
export const DELETED_ENDPOINT = 'Deleted endpoint';

/**
 * The name of a delivery's endpoint for its row: the endpoint's name, "Deleted
 * endpoint" once the endpoints are known and it is not among them, and undefined
 * while they are not known yet (a name is not guessed).
 */
export function endpointName(
  endpoints: readonly { id: string; name: string }[],
  loaded: boolean,
  endpointId: string,
): string | undefined {
  const found = endpoints.find((e) => e.id === endpointId);
  if (found) return found.name;
  return loaded ? DELETED_ENDPOINT : undefined;
}
