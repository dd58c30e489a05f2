import { z } from 'zod';

/** Removes what the model does not need: `$schema`, and integer bounds that only say "a safe integer". */
function clean(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(clean);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema') continue;
    if (k === 'maximum' && v === Number.MAX_SAFE_INTEGER) continue;
    if (k === 'minimum' && v === Number.MIN_SAFE_INTEGER) continue;
    out[k] = clean(v);
  }
  return out;
}

/** The JSON Schema the model sees for a tool's zod input (input side: defaulted fields are optional). */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  return clean(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
}
