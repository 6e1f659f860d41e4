import { schemeFor } from '../../signatures/registry.ts';
import type { SchemeId } from '../../signatures/scheme-ids.ts';

/** The signed timestamp of a delivery, or null when the scheme has none (or it is unreadable). */
export function signedTimestamp(scheme: SchemeId, headers: Record<string, string | string[]>): number | null {
  return schemeFor(scheme).timestamp?.read(headers) ?? null;
}
