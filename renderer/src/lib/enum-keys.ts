/**
 * Every value of an enum, in the order written, from a record keyed by it. Typed
 * `Record<Enum, ...>` over an enum of the OpenAPI document (api/client.ts), the
 * record does not compile until each value the engine can send has its entry, so
 * the UI's lists never fall behind the API.
 */
export const enumKeys = <K extends string>(record: Record<K, unknown>): K[] => Object.keys(record) as K[];
