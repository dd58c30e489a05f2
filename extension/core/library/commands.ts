import { metaList, metaText, parseFrontMatter } from '../text/front-matter';
import { readFolderFiles } from './folder-files';
import { baseName, BUILTIN_COMMANDS, clipDescription, validCommandName } from './names';
import { commandFolders, type LibraryFolder, type LibraryFormat, type LibraryScope } from './sources';

/** A slash command from a prompt file: `/name args` sends its text, the arguments filled in. */
export interface SlashCommand {
  name: string;
  description?: string;
  /** What to type after the name (`[file] [focus]`), shown in the slash menu. */
  argumentHint?: string;
  /** The file's text after its header, as read (capped). */
  body: string;
  /** Where it is from, as shown: `.github/prompts/review.prompt.md`. */
  origin: string;
  file: string;
  scope: LibraryScope;
  format: LibraryFormat;
  /** What of the file Snowpea does not do (a model, allowed tools), said in the listings. */
  notes: string[];
}

/** The most of one command or agent file that is read. */
export const LIBRARY_FILE_MAX_BYTES = 64 * 1024;
/** The most files read from one folder. */
export const LIBRARY_MAX_FILES = 200;

type Skip = (why: string) => void;

/** What a prompt file's header asks for that Snowpea does not do, in words for the listings. */
function commandNotes(data: Record<string, unknown>, body: string, format: LibraryFormat, truncated: boolean): string[] {
  const notes: string[] = [];
  const model = metaText(data, 'model');
  if (model) notes.push(`model ${model} not used: commands run on the model you chose`);
  if (data['allowed-tools'] !== undefined) notes.push('allowed-tools not used: tools ask as usual');
  if (data.tools !== undefined) notes.push('tools list not used: the session keeps its tools');
  const agent = metaText(data, 'agent') ?? metaText(data, 'mode');
  if (agent) notes.push(`agent ${agent} not used: the command runs in the chat's mode`);
  if (format !== 'copilot' && /^!`/m.test(body)) notes.push('!`command` lines are not run before sending; the model reads them as text');
  if (truncated) notes.push(`only the first ${LIBRARY_FILE_MAX_BYTES / 1024} KB were read`);
  return notes;
}

function commandsIn(folder: LibraryFolder, onSkip?: Skip): SlashCommand[] {
  const files = readFolderFiles(folder.dir, folder.owner, {
    match: (n) => folder.suffix.test(n),
    recursive: folder.recursive,
    maxFiles: LIBRARY_MAX_FILES,
    maxBytes: LIBRARY_FILE_MAX_BYTES,
    onSkip: (why) => onSkip?.(`command ${why}`),
  });
  const out: SlashCommand[] = [];
  for (const f of files) {
    const origin = `${folder.origin}/${f.rel}`;
    const { data, body, problem } = parseFrontMatter(f.text);
    if (problem) onSkip?.(`command header not read: ${origin}: ${problem}`);
    // VS Code's prompt files may name themselves; Claude Code's take the file's name.
    const own = folder.format === 'copilot' ? metaText(data, 'name') : undefined;
    const name = validCommandName(own) ? own : baseName(f.rel, folder.suffix);
    if (!validCommandName(name)) {
      onSkip?.(`command not listed: ${origin}: its name is not a command name (letters, digits, _ - . : only)`);
      continue;
    }
    // Claude Code describes a command without a description by its first line.
    const description = clipDescription(metaText(data, 'description') ?? firstLine(body));
    // `argument-hint: [message]` is a YAML list to a YAML reader: shown as written.
    const hintList = Array.isArray(data['argument-hint']) ? metaList(data, 'argument-hint') : undefined;
    const argumentHint = hintList ? hintList.map((h) => `[${h}]`).join(' ') : metaText(data, 'argument-hint');
    out.push({
      name,
      ...(description ? { description } : {}),
      ...(argumentHint ? { argumentHint } : {}),
      body,
      origin,
      file: f.abs,
      scope: folder.scope,
      format: folder.format,
      notes: commandNotes(data, body, folder.format, f.truncated),
    });
  }
  return out;
}

function firstLine(body: string): string | undefined {
  const line = body.split(/\r?\n/).find((l) => l.trim() && !l.trim().startsWith('<!--'));
  const text = line?.replace(/^#+\s*/, '').trim();
  return text ? (text.length > 100 ? `${text.slice(0, 99)}…` : text) : undefined;
}

export interface LibraryOptions {
  /** Workspace Trust: false reads none of the workspace's commands or agents. Default: trusted (the CLI). */
  trusted?: boolean;
  /** Told why a file was not read or listed (a link out of the workspace, a taken name): for the log. */
  onSkip?: Skip;
}

/**
 * Slash commands of the workspace (`.snowpea/commands`, `.claude/commands`, `.github/prompts`)
 * and the user (`~/.snowpea/commands`, `~/.claude/commands`), sorted by name. The first folder
 * holding a name wins; the composer's own commands (/compact, /plan, /act, /attach) keep theirs.
 */
export function listCommands(workspaceRoot: string, o: LibraryOptions = {}): SlashCommand[] {
  const byName = new Map<string, SlashCommand>();
  for (const folder of commandFolders(workspaceRoot)) {
    if (folder.scope === 'workspace' && o.trusted === false) continue;
    for (const c of commandsIn(folder, o.onSkip)) {
      const key = c.name.toLowerCase();
      if (BUILTIN_COMMANDS.includes(key)) o.onSkip?.(`command not listed: ${c.origin}: /${c.name} is Snowpea's own`);
      else if (byName.has(key)) o.onSkip?.(`command not listed: ${c.origin}: /${c.name} is taken by ${byName.get(key)!.origin}`);
      else byName.set(key, c);
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The command named (exactly, else ignoring case). */
export function findCommand(commands: readonly SlashCommand[], name: string): SlashCommand | undefined {
  return commands.find((c) => c.name === name) ?? commands.find((c) => c.name.toLowerCase() === name.toLowerCase());
}

/** `/name args` at the start of a message: the name and the rest (trimmed); undefined for anything else. */
export function slashInvocation(text: string): { name: string; args: string } | undefined {
  const m = /^\/([A-Za-z0-9][A-Za-z0-9_.:-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1], args: (m[2] ?? '').trim() } : undefined;
}
