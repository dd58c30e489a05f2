import { defaultSettings, settingDefs, settingKeys, type SettingKey, type Settings } from './schema';

/** Who wrote a source: the user (user settings, ~/.snowpea, --settings, flags) or the workspace (files a cloned repository can ship). */
export type SourceScope = 'user' | 'workspace';

/** One layer of settings: where it came from, who wrote it, and its raw values (nested or flat keys). */
export interface SettingsSource {
  name: string;
  values: unknown;
  /** Default 'user'. Workspace sources cannot set user-only keys and may only tighten narrowing ones. */
  scope?: SourceScope;
}

export interface SettingsIssue {
  key: string;
  source: string;
  message: string;
}

export interface LoadedSettings {
  settings: Settings;
  issues: SettingsIssue[];
  /** For each key, the source its value came from ("default" when none set it). */
  origin: Record<SettingKey, string>;
  /** For each key, who set the value in force. */
  scope: Record<SettingKey, SourceScope | 'default'>;
  /** Workspace values that were ignored because only the user may set them (or loosen them). */
  ignored: SettingsIssue[];
}

const keySet = new Set<string>(settingKeys);

/** Flattens `{"tools": {"repeatGuard": false}}` into `{"tools.repeatGuard": false}`; known dotted keys stop the descent. */
export function flattenSettings(values: Record<string, unknown>, prefix = ''): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (keySet.has(key) || v === null || typeof v !== 'object' || Array.isArray(v)) out[key] = v;
    else Object.assign(out, flattenSettings(v as Record<string, unknown>, key));
  }
  return out;
}

/**
 * Merges sources in order (later wins). Every bad value is reported with its key and
 * source and ignored, so the earlier value (ultimately the default) stays in force.
 */
export function mergeSettings(sources: SettingsSource[]): LoadedSettings {
  const settings = defaultSettings() as Record<string, unknown>;
  const origin = Object.fromEntries(settingKeys.map((k) => [k, 'default'])) as Record<SettingKey, string>;
  const scope = Object.fromEntries(settingKeys.map((k) => [k, 'default'])) as Record<SettingKey, SourceScope | 'default'>;
  const issues: SettingsIssue[] = [];
  const ignored: SettingsIssue[] = [];
  for (const src of sources) {
    if (src.values === undefined || src.values === null) continue;
    if (typeof src.values !== 'object' || Array.isArray(src.values)) {
      issues.push({ key: '(root)', source: src.name, message: 'expected an object of settings' });
      continue;
    }
    const flat = flattenSettings(src.values as Record<string, unknown>);
    for (const [key, value] of Object.entries(flat)) {
      if (!keySet.has(key)) {
        issues.push({ key, source: src.name, message: 'unknown setting' });
        continue;
      }
      if (value === undefined) continue;
      const parsed = settingDefs[key as SettingKey].schema.safeParse(value);
      if (!parsed.success) {
        const msg = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message).join('; ');
        issues.push({ key, source: src.name, message: `${msg} (got ${JSON.stringify(value)}); using ${JSON.stringify(settings[key])}` });
        continue;
      }
      const refusal = src.scope === 'workspace' ? workspaceRefusal(key as SettingKey, parsed.data, settings[key]) : undefined;
      if (refusal) {
        ignored.push({ key, source: src.name, message: refusal });
        continue;
      }
      settings[key] = parsed.data;
      origin[key as SettingKey] = src.name;
      scope[key as SettingKey] = src.scope ?? 'user';
    }
  }
  return { settings: settings as Settings, issues: [...issues, ...ignored], origin, scope, ignored };
}

/** Why a workspace source may not set this value, or undefined when it may. */
function workspaceRefusal(key: SettingKey, value: unknown, current: unknown): string | undefined {
  const d = settingDefs[key];
  if (d.trust === 'user') return 'ignored: a workspace cannot set this (it could widen approvals, run programs or route secrets); set it in your user settings';
  if (d.strictness && d.strictness.indexOf(String(value)) < d.strictness.indexOf(String(current))) {
    return `ignored: a workspace may only make it stricter than ${JSON.stringify(current)}; set it in your user settings`;
  }
  if (d.workspaceMay && !oneWayAllowed(d.workspaceMay, value, current)) {
    const how = d.workspaceMay === 'lower' ? 'lower it' : 'raise it (or set null)';
    return `ignored: a workspace may only ${how} from ${JSON.stringify(current)}; set it in your user settings`;
  }
  return undefined;
}

/** Whether a workspace value moves a one-way number the allowed way (null is the top: off). */
function oneWayAllowed(way: 'lower' | 'higher', value: unknown, current: unknown): boolean {
  const rank = (v: unknown) => (v === null ? Infinity : typeof v === 'number' ? v : NaN);
  const [v, c] = [rank(value), rank(current)];
  return way === 'lower' ? v <= c : v >= c;
}

export function formatIssue(i: SettingsIssue): string {
  return `setting ${i.key} from ${i.source}: ${i.message}`;
}

/**
 * The keys in force that a workspace set and that decide what a turn may cost (risk 'spend': the
 * model, rounds, eager tools, media models), in one sentence for the chat and the CLI; undefined
 * when the workspace set none. A repository may pick them, but never silently (red team N14).
 */
export function workspaceSpendNotice(loaded: LoadedSettings): string | undefined {
  const keys = settingKeys.filter((k) => settingDefs[k].risk === 'spend' && loaded.scope[k] === 'workspace');
  if (!keys.length) return undefined;
  const sources = [...new Set(keys.map((k) => loaded.origin[k]))].join(', ');
  const values = keys.map((k) => `${k} = ${JSON.stringify(loaded.settings[k])}`).join(', ');
  return `this workspace's settings (${sources}) set ${values}, which decide what a turn may cost; set them in your user settings to choose yourself`;
}

/**
 * The sources with `keys` taken out of every workspace source: what applies when the user declined
 * something a workspace chose (its model endpoint), so the user's own value, or the default, is used.
 */
export function withoutWorkspaceValues(sources: SettingsSource[], keys: readonly SettingKey[]): SettingsSource[] {
  return sources.map((src) => {
    if (src.scope !== 'workspace' || !src.values || typeof src.values !== 'object' || Array.isArray(src.values)) return src;
    const flat = flattenSettings(src.values as Record<string, unknown>);
    for (const k of keys) delete flat[k];
    return { ...src, values: flat };
  });
}
