import { createHash } from 'node:crypto';
import type { McpToolName } from '../tools/names';

const MAX = 64;

/** Letters, digits, `_` and `-` only (what the chat APIs accept in tool names). */
export function sanitizeNamePart(s: string): string {
  return s.replace(/[^a-zA-Z0-9_-]+/g, '_').replace(/^_+|_+$/g, '') || 'x';
}

function shortHash(s: string): string {
  return createHash('sha256').update(s).digest('hex').slice(0, 6);
}

/**
 * `mcp__<server>__<tool>`, sanitized to [a-zA-Z0-9_-] and at most 64 characters. A name that
 * would be longer keeps its start and gains a short hash of the full name, so it stays unique.
 */
export function mcpToolName(server: string, tool: string): McpToolName {
  const full: McpToolName = `mcp__${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (full.length <= MAX) return full;
  const tag = `_${shortHash(`${server}\u0000${tool}`)}`;
  // The cut keeps the `mcp__` prefix (MAX is far longer).
  return (full.slice(0, MAX - tag.length) + tag) as McpToolName;
}

/** The deferred group of a server's tools. */
export function mcpGroup(server: string): string {
  return `mcp:${server}`;
}

/** Picks a name not in `taken` (a numeric suffix when two tools sanitize to the same name). */
export function uniqueName(base: McpToolName, taken: (name: string) => boolean): McpToolName {
  if (!taken(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    // Only the end is cut, so the `mcp__` prefix stays.
    const name = (base.length + suffix.length > MAX ? base.slice(0, MAX - suffix.length) + suffix : base + suffix) as McpToolName;
    if (!taken(name)) return name;
  }
}
