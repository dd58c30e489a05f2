import { defaultSettings, settingDefs, settingKeys, type SettingKey, type Settings } from './schema';

/** One layer of settings: where it came from and its raw values (nested or flat keys). */
export interface SettingsSource {
  name: string;
  values: unknown;
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
  const issues: SettingsIssue[] = [];
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
      settings[key] = parsed.data;
      origin[key as SettingKey] = src.name;
    }
  }
  return { settings: settings as Settings, issues, origin };
}

export function formatIssue(i: SettingsIssue): string {
  return `setting ${i.key} from ${i.source}: ${i.message}`;
}
