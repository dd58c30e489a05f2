import type { z } from 'zod';
import { errorResult, type AnyTool, type ToolResult } from './types';

export type ParsedArguments = { ok: true; value: unknown } | { ok: false; result: ToolResult };

/** "path (string, required), offset (integer)" from a tool's JSON Schema, to show the model what was expected. */
export function fieldsHint(schema: Record<string, unknown>): string {
  const props = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const fields = Object.entries(props).map(([k, p]) => {
    const type = p.enum ? p.enum.map((v) => JSON.stringify(v)).join('|') : Array.isArray(p.type) ? p.type.join('|') : String(p.type ?? 'any');
    return `${k} (${type}${required.has(k) ? ', required' : ''})`;
  });
  return fields.length ? `expected a JSON object with: ${fields.join(', ')}` : 'expected an empty JSON object {}';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.length ? issue.path.map(String).join('.') : '(arguments)';
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((k) => `${[...issue.path.map(String), k].join('.')}: unexpected field`).join('; ');
  }
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) {
    return `${where}: missing (required ${issue.expected})`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** Parses the model's raw argument string and validates it against the tool's zod schema. */
export function parseToolArguments(tool: AnyTool, raw: string, jsonSchema: Record<string, unknown>): ParsedArguments {
  const fail = (what: string) =>
    ({ ok: false, result: errorResult('invalid_arguments', `invalid arguments for ${tool.name}: ${what}; ${fieldsHint(jsonSchema)}`) }) as const;
  let value: unknown;
  const text = raw.trim();
  if (text === '') value = {};
  else {
    try {
      value = JSON.parse(text);
    } catch (e) {
      const snippet = text.length > 80 ? `${text.slice(0, 77)}...` : text;
      return fail(`the arguments are not valid JSON (${(e as Error).message}) in ${JSON.stringify(snippet)}`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return fail(`the arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`}`);
  }
  const parsed = tool.input.safeParse(value);
  if (!parsed.success) return fail(parsed.error.issues.map(describeIssue).join('; '));
  return { ok: true, value: parsed.data };
}
