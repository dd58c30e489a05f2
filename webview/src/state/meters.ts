import type { ChatState, RoundMeter } from './types';

/** Rounds of meter history kept (the meter shows the latest; its details list these). */
export const METER_HISTORY = 50;

type MeterFields = Omit<RoundMeter, 'round'>;

/**
 * Merges what is known about one round into the meter history. `usage` and the host's
 * `meter` for the same round may arrive in either order: the later one fills in the entry
 * the earlier one started. A new round number starts a new entry.
 */
export function mergeMeter(s: ChatState, round: number, fields: MeterFields): ChatState {
  const meters = s.meters.slice();
  const last = meters[meters.length - 1];
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as MeterFields;
  if (last && last.round === round) meters[meters.length - 1] = { ...last, ...defined };
  else meters.push({ ...defined, round });
  return { ...s, meters: meters.length > METER_HISTORY ? meters.slice(meters.length - METER_HISTORY) : meters };
}
