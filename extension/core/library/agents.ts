import * as path from 'node:path';
import { roleNames } from '../tools/roles';
import { metaList, metaText, parseFrontMatter } from '../text/front-matter';
import { readFolderFiles, readOwnedFile } from './folder-files';
import { baseName, clipDescription, validAgentName } from './names';
import { rooModes } from './roo-modes';
import type { CustomAgent } from './custom-agent';
import { workspaceFolderOrigins } from '../tools/roots';
import { agentFolders, ROO_MODES_FILE, type LibraryFolder, type LibraryFormat } from './sources';
import { denyOnly, mapTools, type ToolDialect } from './tool-map';
import { LIBRARY_FILE_MAX_BYTES, LIBRARY_MAX_FILES, type LibraryOptions } from './commands';

export type { CustomAgent } from './custom-agent';

type Skip = (why: string) => void;

const DIALECT: Record<LibraryFormat, ToolDialect> = { claude: 'claude', copilot: 'copilot', roo: 'roo', snowpea: 'snowpea' };

/** The notes every format shares: a model is a spend, permission modes and hooks would widen what runs. */
function commonNotes(data: Record<string, unknown>): string[] {
  const notes: string[] = [];
  const model = metaText(data, 'model') ?? metaList(data, 'model')?.join(', ');
  if (model && model !== 'inherit') notes.push(`model ${model} not used: agents run on the model you chose`);
  const permissionMode = metaText(data, 'permissionMode');
  if (permissionMode) notes.push(`permissionMode ${permissionMode} not used: tools ask as usual`);
  for (const key of ['hooks', 'mcpServers', 'mcp-servers', 'handoffs']) if (data[key] !== undefined) notes.push(`${key} not used`);
  return notes;
}

/** One agent file (Claude Code, VS Code or Snowpea format) as a CustomAgent. */
export function parseAgentFile(text: string, o: { fileName: string; folder: Pick<LibraryFolder, 'format' | 'scope' | 'origin' | 'suffix'>; file: string; truncated?: boolean; onSkip?: Skip }): CustomAgent | undefined {
  const origin = `${o.folder.origin}/${o.fileName}`;
  const { data, body, problem } = parseFrontMatter(text);
  if (problem) o.onSkip?.(`agent header not read: ${origin}: ${problem}`);
  const own = metaText(data, 'name');
  const name = validAgentName(own) ? own : baseName(o.fileName, o.folder.suffix);
  if (!validAgentName(name)) {
    o.onSkip?.(`agent not listed: ${origin}: its name is not an agent name`);
    return undefined;
  }
  const notes = commonNotes(data);
  const dialect = DIALECT[o.folder.format];
  const list = metaList(data, 'tools');
  const deny = metaList(data, 'disallowedTools') ?? [];
  let tools: string[] | undefined;
  let deniedTools: string[] | undefined;
  if (list) {
    const mapped = mapTools(list, dialect, deny);
    tools = mapped.allowed;
    if (mapped.unknown.length) notes.push(`tools Snowpea does not have, left out: ${mapped.unknown.join(', ')}`);
  } else {
    const d = denyOnly(deny, dialect);
    if (d) {
      deniedTools = d.denied;
      if (d.unknown.length) notes.push(`disallowedTools Snowpea does not have: ${d.unknown.join(', ')}`);
    }
  }
  const turns = Number(metaText(data, 'maxTurns'));
  if (o.truncated) notes.push(`only the first ${LIBRARY_FILE_MAX_BYTES / 1024} KB were read`);
  return {
    name,
    description: clipDescription(metaText(data, 'description')) ?? '',
    instructions: body.trim(),
    ...(tools ? { tools } : {}),
    ...(deniedTools ? { deniedTools } : {}),
    ...(Number.isInteger(turns) && turns > 0 ? { maxRounds: turns } : {}),
    origin,
    file: o.file,
    scope: o.folder.scope,
    format: o.folder.format,
    notes,
  };
}

function agentsIn(folder: LibraryFolder, onSkip?: Skip): CustomAgent[] {
  const files = readFolderFiles(folder.dir, folder.owner, {
    match: (n) => folder.suffix.test(n) && !/^readme\.md$/i.test(n),
    recursive: folder.recursive,
    maxFiles: LIBRARY_MAX_FILES,
    maxBytes: LIBRARY_FILE_MAX_BYTES,
    onSkip: (why) => onSkip?.(`agent ${why}`),
  });
  return files.flatMap((f) => parseAgentFile(f.text, { fileName: f.rel, folder, file: f.abs, truncated: f.truncated, onSkip }) ?? []);
}

function rooAgents(workspaceRoot: string, onSkip?: Skip): CustomAgent[] {
  const file = path.join(workspaceRoot, ROO_MODES_FILE);
  const read = readOwnedFile(file, workspaceRoot, LIBRARY_FILE_MAX_BYTES, (why) => onSkip?.(`agents ${why}`));
  if (!read) return [];
  return rooModes(read.text, { file, onSkip });
}

/**
 * Custom agents: the workspace's (`.snowpea/agents`, `.claude/agents`, `.github/agents`,
 * `.github/chatmodes`, then `.roomodes`; only when trusted) before the user's (`~/.snowpea/agents`,
 * `~/.claude/agents`). The first of a name wins; general, explore and reviewer stay Snowpea's own.
 */
export function listAgents(workspaceRoot: string, o: LibraryOptions = {}): CustomAgent[] {
  const folders = agentFolders(workspaceRoot);
  const found: CustomAgent[] = [];
  if (o.trusted !== false) {
    for (const f of folders.filter((f) => f.scope === 'workspace')) found.push(...agentsIn(f, o.onSkip));
    for (const f of workspaceFolderOrigins(workspaceRoot)) found.push(...rooAgents(f.path, o.onSkip));
  }
  for (const f of folders.filter((f) => f.scope === 'user')) found.push(...agentsIn(f, o.onSkip));
  const byName = new Map<string, CustomAgent>();
  const builtin = new Set(['default', ...roleNames()]);
  for (const a of found) {
    const key = a.name.toLowerCase();
    if (builtin.has(key)) o.onSkip?.(`agent not listed: ${a.origin}: ${a.name} is Snowpea's own`);
    else if (byName.has(key)) o.onSkip?.(`agent not listed: ${a.origin}: ${a.name} is taken by ${byName.get(key)!.origin}`);
    else byName.set(key, a);
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The agent named (exactly, else ignoring case). */
export function findAgent(agents: readonly CustomAgent[], name: string): CustomAgent | undefined {
  return agents.find((a) => a.name === name) ?? agents.find((a) => a.name.toLowerCase() === name.toLowerCase());
}
