/**
 * What Snowpea remembers about MCP servers between sessions, in one folder:
 * - `mcp-tools.json`: each server's tool list (keyed by definition hash), so the deferred line
 *   and tool_search work before the server has started this session;
 * - `mcp-consent.json`: the user's answer to "start this workspace server?" per definition hash,
 *   so a changed definition asks again.
 * Files are re-read before each write (several windows may share the folder) and written atomically.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { McpToolInfo } from './types';

export const TOOLS_FILE = 'mcp-tools.json';
export const CONSENT_FILE = 'mcp-consent.json';

interface ToolsFile {
  version: 1;
  servers: Record<string, { name: string; updated: number; tools: McpToolInfo[] }>;
}

interface ConsentFile {
  version: 1;
  answers: Record<string, { name: string; allowed: boolean; at: number }>;
}

function readJson<T extends { version: 1 }>(file: string, empty: T): T {
  try {
    const v = JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    return v && typeof v === 'object' && v.version === 1 ? v : empty;
  } catch {
    return empty;
  }
}

function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(value, null, 1)}\n`);
  fs.renameSync(tmp, file);
}

function validTool(t: unknown): t is McpToolInfo {
  const x = t as McpToolInfo;
  return !!x && typeof x.name === 'string' && !!x.inputSchema && typeof x.inputSchema === 'object';
}

export class McpCache {
  constructor(readonly dir: string) {}

  private get toolsFile(): string {
    return path.join(this.dir, TOOLS_FILE);
  }

  private get consentFile(): string {
    return path.join(this.dir, CONSENT_FILE);
  }

  /** The cached tool list of a definition, or undefined when it never ran (or its definition changed). */
  tools(hash: string): McpToolInfo[] | undefined {
    const entry = readJson<ToolsFile>(this.toolsFile, { version: 1, servers: {} }).servers[hash];
    return Array.isArray(entry?.tools) ? entry.tools.filter(validTool) : undefined;
  }

  setTools(hash: string, name: string, tools: McpToolInfo[]): void {
    const f = readJson<ToolsFile>(this.toolsFile, { version: 1, servers: {} });
    f.servers[hash] = { name, updated: Date.now(), tools };
    writeJson(this.toolsFile, f);
  }

  /** true/false when the user answered for this definition, undefined when never asked. */
  consent(hash: string): boolean | undefined {
    const a = readJson<ConsentFile>(this.consentFile, { version: 1, answers: {} }).answers[hash];
    return typeof a?.allowed === 'boolean' ? a.allowed : undefined;
  }

  setConsent(hash: string, name: string, allowed: boolean): void {
    const f = readJson<ConsentFile>(this.consentFile, { version: 1, answers: {} });
    f.answers[hash] = { name, allowed, at: Date.now() };
    writeJson(this.consentFile, f);
  }

  forgetConsent(hash: string): void {
    const f = readJson<ConsentFile>(this.consentFile, { version: 1, answers: {} });
    if (!(hash in f.answers)) return;
    delete f.answers[hash];
    writeJson(this.consentFile, f);
  }
}
