/**
 * The optional request parts each endpoint refused, remembered per endpoint for the life of the
 * process (every session and every client made for that endpoint), so a strict endpoint costs one
 * refused request, not one per session. Each refusal is said once, to the log and to whoever asks
 * (the meter's tooltip).
 */
import type { OptionalParam } from './cache-hints';

const refusedByEndpoint = new Map<string, Set<OptionalParam>>();

/** What this endpoint refused so far (a live set: refusals add to it). */
export function refusedAt(endpoint: string): Set<OptionalParam> {
  let set = refusedByEndpoint.get(endpoint);
  if (!set) refusedByEndpoint.set(endpoint, (set = new Set()));
  return set;
}

/** "prompt_cache_key and stream_options" */
export function listParams(params: readonly string[]): string {
  return params.length <= 1 ? (params[0] ?? '') : `${params.slice(0, -1).join(', ')} and ${params[params.length - 1]}`;
}

/** Forgets every endpoint's refusals (tests). */
export function forgetRefusals(): void {
  refusedByEndpoint.clear();
}
