import { z } from 'zod';

/**
 * Removes what the model does not need to call the tool well, since every eager schema is paid for
 * on every request: `$schema`, `additionalProperties: false`, `minLength`, `minItems`/`maxItems`,
 * and trivial integer bounds (0, 1, a safe integer, a day of seconds). The zod schema still
 * validates every call and names what was wrong, so nothing is lost but tokens.
 */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' || k === 'minLength' || k === 'minItems' || k === 'maxItems') continue;
    if (k === 'additionalProperties' && v === false) continue;
    if (k === 'maximum' && typeof v === 'number' && v >= 86_400) continue;
    if (k === 'minimum' && typeof v === 'number' && (v === 0 || v === 1 || v === Number.MIN_SAFE_INTEGER)) continue;
    out[k] = clean(v);
  }
  return out;
}

/** The JSON Schema the model sees for a tool's zod input (input side: defaulted fields are optional). */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return clean(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
}
