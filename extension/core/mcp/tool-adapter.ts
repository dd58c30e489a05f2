/**
 * One MCP tool as a Snowpea tool: named `mcp__<server>__<tool>`, in the deferred group
 * `mcp:<server>`, permission `exec` (calls go through the approver). The server's input schema
 * is sent to the model as is (ToolDefinition.jsonSchema); arguments are checked against that same
 * schema with ajv inside the zod input, so a bad call is `invalid_arguments` before anyone is
 * asked to approve it, with ajv's message naming the field.
 */
import type { McpToolName } from '../tools/names';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { z } from 'zod';
import { defineTool, type AnyTool, type ToolContext, type ToolResult } from '../tools/types';
import { mcpGroup, sanitizeNamePart } from './names';
import type { McpToolInfo } from './types';

const validators = new AjvJsonSchemaValidator();

type Check = (value: unknown) => string | undefined;

/** The schema the model sees: no `$schema`, always an object schema with `properties`. */
export function wireSchema(input: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _drop, ...rest } = structuredClone(input ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = { ...rest, type: 'object' };
  if (!out.properties || typeof out.properties !== 'object') out.properties = {};
  return out;
}

/** Compiles lazily; a schema ajv cannot compile is not checked here (the server still validates). */
function schemaCheck(schema: Record<string, unknown>): Check {
  let check: Check | undefined;
  return (value) => {
    if (!check) {
      try {
        const v = validators.getValidator<unknown>(schema as never);
        check = (x) => {
          const r = v(x);
          return r.valid ? undefined : r.errorMessage.replace(/\bdata\//g, '').replace(/\bdata /g, '');
        };
      } catch {
        check = () => undefined;
      }
    }
    return check(value);
  };
}

function firstLine(s: string | undefined, max = 120): string | undefined {
  const line = s?.split(/\r?\n/).map((l) => l.trim()).find(Boolean);
  if (!line) return undefined;
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function argsPreview(args: Record<string, unknown>, max = 160): string {
  const json = JSON.stringify(args);
  if (json === '{}') return '';
  return ` ${json.length > max ? `${json.slice(0, max - 1)}…` : json}`;
}

export interface McpToolBinding {
  /** The server's name as configured. */
  server: string;
  info: McpToolInfo;
  /** The registered name (mcpToolName, made unique). */
  name: McpToolName;
  call(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult>;
}

export function mcpToolDefinition(b: McpToolBinding): AnyTool {
  const jsonSchema = wireSchema(b.info.inputSchema);
  const check = schemaCheck(jsonSchema);
  const input = z.record(z.string(), z.unknown()).superRefine((value, zc) => {
    const problem = check(value);
    if (problem) zc.addIssue({ code: 'custom', message: problem });
  });
  const fallback = `The ${b.info.name} tool of the MCP server ${b.server}.`;
  return defineTool({
    name: b.name,
    // Runs the server's code (exec); identical results are stubbed like other scanning tools; results may hold images.
    traits: { readOnly: false, repeat: 'scan', subagents: true, images: true },
    group: mcpGroup(sanitizeNamePart(b.server)),
    permission: 'exec',
    deferred: true,
    summary: firstLine(b.info.title) ?? firstLine(b.info.description) ?? fallback,
    description: b.info.description?.trim() || b.info.title || fallback,
    input,
    jsonSchema,
    describeCall: (args) => `${b.server}: ${b.info.name}${argsPreview(args)}`,
    run: (args, ctx) => b.call(args, ctx),
  }) as AnyTool;
}
