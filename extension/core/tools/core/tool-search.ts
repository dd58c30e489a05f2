import { z } from 'zod';
import { defineTool, errorResult, okResult, type AnyTool } from '../types';
import { TOOL } from '../names';

const MAX_RESULTS = 5;

/** Splits a keyword query into required (+term) and optional terms, lower-cased. */
export function parseQuery(query: string): { required: string[]; optional: string[] } {
  const required: string[] = [];
  const optional: string[] = [];
  for (const raw of query.toLowerCase().split(/\s+/).filter(Boolean)) {
    if (raw.startsWith('+') && raw.length > 1) required.push(raw.slice(1));
    else optional.push(raw.replace(/^\+/, ''));
  }
  return { required, optional: optional.filter(Boolean) };
}

/**
 * Ranking: a term scores 10 when it equals a name part (browser_click -> browser, click),
 * 6 when the name contains it, 4 when it names the group, 1 when the summary or description
 * mentions it. A tool must match every +term somewhere; ties go to the shorter name, then A-Z.
 */
export function scoreTool(tool: AnyTool, term: string): number {
  const name = tool.name.toLowerCase();
  const parts = name.split(/[_\-.]+/);
  let score = 0;
  if (parts.includes(term) || name === term) score += 10;
  else if (name.includes(term)) score += 6;
  if (tool.group.toLowerCase() === term || tool.group.toLowerCase().includes(term)) score += 4;
  if (`${tool.summary} ${tool.description}`.toLowerCase().includes(term)) score += 1;
  return score;
}

export function searchTools(tools: AnyTool[], query: string): AnyTool[] {
  const { required, optional } = parseQuery(query);
  const terms = [...required, ...optional];
  if (!terms.length) return [];
  const scored = tools
    .map((t) => ({ t, req: required.map((r) => scoreTool(t, r)), opt: optional.map((o) => scoreTool(t, o)) }))
    .filter((x) => x.req.every((s) => s > 0) && [...x.req, ...x.opt].some((s) => s > 0))
    .map((x) => ({ t: x.t, score: [...x.req, ...x.opt].reduce((a, b) => a + b, 0) }));
  scored.sort((a, b) => b.score - a.score || a.t.name.length - b.t.name.length || a.t.name.localeCompare(b.t.name));
  return scored.slice(0, MAX_RESULTS).map((x) => x.t);
}

export interface ToolSearchHost {
  /** Tools that can be loaded (deferred ones the session may use). */
  candidates(sessionId: string): AnyTool[];
  /** Every registered tool name (to tell unknown from unavailable). */
  has(name: string): boolean;
  /** Resolves when the tool sources still starting (MCP servers) have listed their tools: awaited before answering not found. */
  whenStarted?(signal: AbortSignal): Promise<void>;
}

/** A tool_search query: `select:a,b` names tools to load; anything else is keywords (searchTools). */
export function toolQuery(query: string): { select: string[] } | { keywords: string } {
  const q = query.trim();
  if (!q.toLowerCase().startsWith('select:')) return { keywords: q };
  return { select: q.slice(7).split(',').map((n) => n.trim()).filter(Boolean) };
}

const input = z.object({
  query: z.string().min(1).describe('"select:name_a,name_b" loads those tools; otherwise keywords ("+browser click": + marks a required term), at most 5 tools.'),
});

export function createToolSearchTool(host: ToolSearchHost): AnyTool {
  return defineTool({
    name: TOOL.tool_search,
    traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
    group: 'core',
    permission: 'read',
    deferred: false,
    summary: 'Load deferred tools (browser, git, media, memory, MCP) by name or keyword',
    description:
      'Load tools from the system prompt\'s Deferred line; callable from the next round.',
    input,
    describeCall: (a) => `tool_search ${a.query}`,
    async run(args, ctx) {
      const q = args.query.trim();
      const lookup = () => {
        const candidates = host.candidates(ctx.session.id);
        const notes: string[] = [];
        const query = toolQuery(q);
        if (!('select' in query)) return { found: searchTools(candidates, query.keywords), notes, unknown: 0 };
        const names = query.select;
        const byName = new Map<string, AnyTool>(candidates.map((t) => [t.name, t]));
        const found = names.map((n) => byName.get(n)).filter((t): t is AnyTool => !!t);
        const missing = names.filter((n) => !byName.has(n));
        const unknown = missing.filter((n) => !host.has(n));
        const unavailable = missing.filter((n) => host.has(n));
        if (unknown.length) notes.push(`unknown: ${unknown.join(', ')}`);
        if (unavailable.length) notes.push(`not loadable here (already loaded, eager, or not allowed in this session): ${unavailable.join(', ')}`);
        return { found, notes, unknown: unknown.length };
      };
      const first = lookup();
      let { found, notes } = first;
      // A server still starting (one added since the last session) may list what was asked for: wait for it, then look again.
      if ((!found.length || first.unknown) && host.whenStarted) {
        await host.whenStarted(ctx.signal);
        ({ found, notes } = lookup());
      }
      if (!found.length) {
        return errorResult('not_found', `no deferred tool matched "${q}"${notes.length ? ` (${notes.join('; ')})` : ''}; check the Deferred line in the system prompt for group names`);
      }
      const added = ctx.loadTools ? ctx.loadTools(found.map((t) => t.name)) : [];
      const lines = found.map((t) => `- ${t.name} (${t.group}, ${t.permission}): ${t.summary}`);
      const head = added.length ? `loaded ${added.join(', ')}; callable from your next round` : `already loaded: ${found.map((t) => t.name).join(', ')}`;
      return okResult([head, ...lines, ...notes].join('\n'));
    },
  });
}
