import type { AnyTool, Permission, SessionMode } from './types';

export const SESSION_MODES: readonly SessionMode[] = ['code', 'plan', 'ask'];

/** Modes in which nothing may change the workspace. */
export const READ_ONLY_MODES: ReadonlySet<string> = new Set<SessionMode>(['plan', 'ask']);

/** Permissions a read-only mode refuses (and does not offer): writes, commands and commits. */
const CHANGING_PERMISSIONS: ReadonlySet<Permission> = new Set(['write', 'exec']);

/** Whether a session in `mode` may offer and run `tool`. */
export function modeAllows(tool: Pick<AnyTool, 'permission'>, mode: string): boolean {
  return !(READ_ONLY_MODES.has(mode) && CHANGING_PERMISSIONS.has(tool.permission));
}
