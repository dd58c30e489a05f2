/**
 * What the "start this workspace MCP server?" question shows, in the CLI and in VS Code's modal:
 * the whole definition as it will run (command, every argument, cwd, environment names and
 * values, envFile, url, header names), nothing cut. Secrets are not shown: a variable or header
 * whose name looks secret shows `***`, and a value that comes from a secret-looking variable
 * (`${env:GITHUB_TOKEN}`, a password `${input:...}`) is shown as written, not substituted.
 * Control and bidi characters are escaped so a value cannot redraw or reorder the prompt.
 */
import { escapeHidden, hasHidden } from '../text/hidden-chars';
import type { McpServerDef, ResolvedServer } from './types';
import { resolveServerDef } from './variables';

/** Names whose values are masked. */
export const SECRET_NAME = /key|token|secret|password|auth/i;
const MASK = '***';

/** What the consent question shows; the CLI prints `prompt`, VS Code shows `question` with `details`. */
export interface ConsentView {
  question: string;
  details: string;
  /** details, then the question. */
  prompt: string;
}

/** A consent answer: `remember` stores it for later runs (a --yes answer is for this run only). */
export interface ConsentAnswer {
  allow: boolean;
  remember: boolean;
}

/**
 * One value on one line: quoted (JSON) when it is empty or has spaces, quotes, backslashes or
 * hidden characters, which are escaped by the one list every Snowpea surface uses
 * (core/text/hidden-chars.ts: controls, bidi, zero-width and other invisible characters).
 */
export function shown(v: string): string {
  if (v !== '' && !/[\s"'\\]/.test(v) && !hasHidden(v)) return v;
  return escapeHidden(JSON.stringify(v));
}

/** Whether a written value takes anything from a secret: a secret-looking variable, or a password input. */
function fromSecret(written: string, def: McpServerDef): boolean {
  for (const m of written.matchAll(/\$\{([^}]*)\}/g)) {
    const v = m[1];
    if (SECRET_NAME.test(v)) return true;
    if (v.startsWith('input:') && def.inputs?.find((i) => i.id === v.slice(6))?.password) return true;
  }
  return false;
}

/** The value to show: masked for a secret name, as written when substituting would reveal a secret, else as it will run. */
function pick(name: string | undefined, written: string | undefined, resolved: string | undefined, def: McpServerDef): string {
  if (name !== undefined && SECRET_NAME.test(name)) return MASK;
  if (written !== undefined && (resolved === undefined || fromSecret(written, def))) return shown(written);
  return shown(resolved ?? '');
}

/**
 * The definition as it would start, for display: variables substituted from the environment,
 * `${input:...}` left as written (VS Code asks for them after consent), the envFile read.
 * Undefined when it cannot be resolved (the start will then fail with the reason).
 */
export async function previewServer(def: McpServerDef, o: { workspaceRoot?: string; env: NodeJS.ProcessEnv }): Promise<ResolvedServer | undefined> {
  try {
    return await resolveServerDef(def, { workspaceRoot: o.workspaceRoot, env: o.env, resolveInput: async (i) => `\${input:${i.id}}` });
  } catch {
    return undefined;
  }
}

export function consentQuestion(def: McpServerDef): string {
  return `Start the MCP server "${def.name}" defined in ${def.source.label}?`;
}

/** Every part of the definition, one per line. */
export function consentDetails(def: McpServerDef, resolved?: ResolvedServer): string {
  const lines: string[] = [];
  if (def.transport === 'stdio') {
    lines.push(`command: ${pick(undefined, def.command, resolved?.command, def)}`);
    const args = def.args ?? [];
    lines.push(args.length ? `arguments (${args.length}):` : 'arguments: none');
    args.forEach((a, i) => lines.push(`  ${i + 1}. ${pick(undefined, a, resolved?.args[i], def)}`));
    lines.push(`cwd: ${resolved?.cwd ? shown(resolved.cwd) : def.cwd ? shown(def.cwd) : '(the workspace folder)'}`);
    if (def.envFile) lines.push(`envFile: ${shown(def.envFile)}`);
    const names = [...new Set([...Object.keys(resolved?.env ?? {}), ...Object.keys(def.env ?? {})])].sort();
    lines.push(names.length ? `environment variables it sets (${names.length}${def.envFile ? ', with the envFile\'s' : ''}):` : 'environment variables it sets: none');
    for (const n of names) lines.push(`  ${shown(n)}=${pick(n, def.env?.[n], resolved?.env[n], def)}`);
    const code = resolved?.workspaceCode;
    if (code) {
      const how = code.via === 'npx' ? `${shown(def.command ?? 'npx')} runs this workspace's own copy of the package, not a download: ` : '';
      const more = code.files > 1 ? ` and ${code.truncated ? 'at least ' : ''}${code.files - 1} more workspace file(s) it loads` : '';
      lines.push(`runs code from this workspace: ${how}${shown(code.entry)}${more} (an edit to any of them asks again)`);
    }
  } else {
    lines.push(`${def.transport === 'sse' ? 'SSE' : 'HTTP'} url: ${pick(undefined, def.url, resolved?.url && maskUrl(resolved.url), def)}`);
    const headers = Object.keys(def.headers ?? {}).sort();
    lines.push(headers.length ? `headers (${headers.length}):` : 'headers: none');
    // Values as written: a variable shows its name (never its value), a literal shows itself unless its name looks secret.
    for (const h of headers) lines.push(`  ${shown(h)}: ${headerValue(h, def.headers![h]!)}`);
  }
  const fromEnv = envFed(def);
  if (fromEnv.length) lines.push(`takes from your environment: ${fromEnv.map((v) => shown(v)).join(', ')}`);
  if (!resolved) lines.push('(shown as written: its variables could not be resolved now)');
  lines.push('Its tools can act for the agent (each call still asks for approval).');
  return lines.join('\n');
}

/** A header's value for the consent: as written when it holds a variable, masked when it is a literal under a secret-looking name. */
function headerValue(name: string, written: string): string {
  if (/\$\{[^}]*\}/.test(written)) return shown(written);
  return SECRET_NAME.test(name) ? MASK : shown(written);
}

/** The `${env:NAME}` (and `.mcp.json` `${NAME}`) variables that feed the url, a header, an argument or the environment. */
function envFed(def: McpServerDef): string[] {
  const texts = [def.url, def.command, ...(def.args ?? []), ...Object.values(def.headers ?? {}), ...Object.values(def.env ?? {})].filter((t): t is string => !!t);
  const names = new Set<string>();
  for (const t of texts) {
    for (const m of t.matchAll(/\$\{([^}]*)\}/g)) {
      const v = m[1];
      if (v.startsWith('env:')) names.add(`\${${v}}`);
      else if (def.source.kind === 'mcp-json' && /^[A-Za-z_][A-Za-z0-9_]*(:-.*)?$/s.test(v)) names.add(`\${${v}}`);
    }
  }
  return [...names].sort();
}

/** A url with its password and secret-looking query values masked. */
function maskUrl(u: string): string {
  try {
    const url = new URL(u);
    if (url.password) url.password = MASK;
    for (const k of [...url.searchParams.keys()]) if (SECRET_NAME.test(k)) url.searchParams.set(k, MASK);
    return url.toString();
  } catch {
    return u;
  }
}

/** The full consent text (details, then the question), as the CLI prints it. */
export function describeServerForConsent(def: McpServerDef, resolved?: ResolvedServer): string {
  return `${consentDetails(def, resolved)}\n${consentQuestion(def)}`;
}

export function consentView(def: McpServerDef, resolved?: ResolvedServer): ConsentView {
  const question = consentQuestion(def);
  const details = consentDetails(def, resolved);
  return { question, details, prompt: `${details}\n${question}` };
}
