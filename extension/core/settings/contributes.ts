import { z } from 'zod';
import { settingDefs, settingKeys } from './schema';

/** One entry of package.json's contributes.configuration.properties. */
export interface ConfigurationProperty {
  type: string | string[];
  default: unknown;
  description: string;
  enum?: string[];
  items?: { type: string };
  minimum?: number;
  maximum?: number;
  scope?: string;
}

/**
 * Derives VS Code's `contributes.configuration.properties` (`snowpea.<key>`) from the zod
 * schema, so the manifest can be generated (scripts/sync-config.ts) and checked (unit test).
 */
export function configurationProperties(): Record<string, ConfigurationProperty> {
  const out: Record<string, ConfigurationProperty> = {};
  for (const key of settingKeys) {
    const d = settingDefs[key];
    const js = z.toJSONSchema(d.schema, { unrepresentable: 'any' }) as Record<string, unknown>;
    const prop: ConfigurationProperty = { type: jsonType(js), default: d.default, description: d.description };
    const en = enumOf(js);
    if (en) prop.enum = en;
    const items = js.items as Record<string, unknown> | undefined;
    if (items && typeof items.type === 'string') prop.items = { type: items.type };
    const num = numericBounds(js);
    if (num.minimum !== undefined && num.minimum > Number.MIN_SAFE_INTEGER) prop.minimum = num.minimum;
    if (num.maximum !== undefined && num.maximum < Number.MAX_SAFE_INTEGER) prop.maximum = num.maximum;
    // 'application': VS Code itself ignores workspace values, and the User tab shows it (code-server hides machine scopes there).
    if (d.trust === 'user') prop.scope = 'application';
    out[`snowpea.${key}`] = prop;
  }
  return out;
}

/** `capabilities.untrustedWorkspaces.restrictedConfigurations`: settings whose workspace values Restricted Mode ignores. */
export function restrictedConfigurations(): string[] {
  return settingKeys.filter((key) => settingDefs[key].trust !== 'any').map((key) => `snowpea.${key}`);
}

function variants(js: Record<string, unknown>): Record<string, unknown>[] {
  const any = (js.anyOf ?? js.oneOf) as Record<string, unknown>[] | undefined;
  return any ?? [js];
}

function jsonType(js: Record<string, unknown>): string | string[] {
  const types = variants(js).flatMap((v) => (Array.isArray(v.type) ? v.type : v.type ? [v.type] : v.enum ? ['string'] : []) as string[]);
  const unique = [...new Set(types)];
  return unique.length === 1 ? unique[0] : unique;
}

function enumOf(js: Record<string, unknown>): string[] | undefined {
  for (const v of variants(js)) if (Array.isArray(v.enum)) return v.enum as string[];
  return undefined;
}

function numericBounds(js: Record<string, unknown>): { minimum?: number; maximum?: number } {
  for (const v of variants(js)) {
    if (typeof v.minimum === 'number' || typeof v.maximum === 'number') return { minimum: v.minimum as number, maximum: v.maximum as number };
  }
  return {};
}
