import type { SessionMode } from './types';

export const SESSION_MODES: readonly SessionMode[] = ['code', 'plan', 'ask'];

/** Modes in which nothing may change the workspace (the policy refuses tools whose traits are not read-only). */
export const READ_ONLY_MODES: ReadonlySet<string> = new Set<SessionMode>(['plan', 'ask']);
