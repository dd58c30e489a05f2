/**
 * A shell command line read for the command rules, with `shell-quote` (a well-kept POSIX-shell
 * tokenizer) doing the word splitting. What shell-quote does not model is handled here, each on
 * the side of asking:
 * - a newline ends a command in the shell but is blank space to shell-quote, so the line is first
 *   cut at newlines outside quotes (a `\` before the newline continues the line);
 * - a redirection target the shell would expand (`$HOME/x`, `~/x`, `.gi?/x`) cannot be judged;
 * - `>&file` and `<>file` write files too;
 * - what runs inside `$( )` and backticks, and behind wrappers (`sudo`, `env`, `xargs`, `bash -c`),
 *   is read out for the deny rules (see commandsToDeny).
 */
import { parse, type ParseEntry } from 'shell-quote';

/** A command line split into its simple commands (words), with what makes it unsafe to allow by rule. */
export interface ParsedCommand {
  commands: string[][];
  /** `$( )`, backticks, `( )` subshells, `<( )`: what runs cannot be judged by prefix. */
  substitution: boolean;
  /** Files written by `>`, `>>`, `&>`, `>|`, `>&file`, `<>`. */
  redirects: string[];
  /** A written file named by something the shell expands (a variable, `~`, a pattern): where it lands is unknown. */
  unclearRedirect: boolean;
  /** More than one line: each line is its own command (heredoc bodies included). */
  multiline: boolean;
}

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', ';;', '|&']);
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>']);
const READS = new Set(['<', '<&', '<<', '<<<']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** The line cut at newlines that end a command: outside quotes, not escaped by `\`. */
export function splitLines(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: '' | "'" | '"' = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = '';
      cur += c;
    } else if (c === '\\') {
      const next = line[i + 1];
      if (next === '\n') {
        i++; // a line continuation: the shell joins the two lines
        continue;
      }
      cur += c + (next ?? '');
      i++;
    } else if (quote === '"') {
      if (c === '"') quote = '';
      cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      cur += c;
    } else if (c === '\n' || c === '\r') {
      out.push(cur);
      cur = '';
    } else {
      cur += c;
    }
  }
  out.push(cur);
  return out.filter((l) => l.trim() !== '');
}

/** Tokens of one line; variables stay as written (`$HOME`), never expanded. */
function tokens(line: string): ParseEntry[] {
  return parse(line, (name) => `$${name}`);
}

/** Whether the shell would expand a redirection target before writing it. */
function expands(target: string): boolean {
  return /[$`*?[]/.test(target) || target.startsWith('~');
}

function parseLine(line: string, out: ParsedCommand): void {
  let current: string[] = [];
  const end = () => {
    if (current.length) out.commands.push(current);
    current = [];
  };
  const entries = tokens(line);
  for (let i = 0; i < entries.length; i++) {
    const t = entries[i];
    if (typeof t === 'string') {
      current.push(t);
      continue;
    }
    if ('comment' in t) break;
    if (!('op' in t)) continue;
    if ('pattern' in t) {
      // A glob word (`*.ts`): shell-quote hands it over as its pattern.
      current.push((t as { pattern: string }).pattern);
    } else if (SEPARATORS.has(t.op)) {
      end();
    } else if (t.op === '(' || t.op === ')' || t.op === '<(' || t.op === '>(') {
      out.substitution = true;
      end();
    } else if (WRITES.has(t.op) || t.op === '>&') {
      const target = entries[++i];
      // `>&2` and `>&-` duplicate or close a descriptor; `>&file` writes the file.
      if (t.op === '>&' && typeof target === 'string' && /^(\d+|-)$/.test(target)) continue;
      if (typeof target === 'string' && !expands(target)) out.redirects.push(target);
      else out.unclearRedirect = true;
    } else if (READS.has(t.op)) {
      i++;
    }
  }
  end();
}

export function parseCommand(line: string): ParsedCommand {
  const lines = splitLines(line);
  const out: ParsedCommand = { commands: [], substitution: /`|\$\(|<\(|>\(/.test(line), redirects: [], unclearRedirect: false, multiline: lines.length > 1 };
  for (const l of lines) parseLine(l, out);
  return out;
}

/** The words of a command after its leading `VAR=value` assignments. */
export function withoutAssignments(command: readonly string[]): string[] {
  const start = command.findIndex((w) => !ASSIGNMENT.test(w));
  return start < 0 ? [] : command.slice(start);
}

/** The leading `VAR=value` assignments of a command. */
export function assignmentsOf(command: readonly string[]): string[] {
  const start = command.findIndex((w) => !ASSIGNMENT.test(w));
  return command.slice(0, start < 0 ? command.length : start);
}

/** The bodies of `$( )` and backtick substitutions in a line (nested ones too), read from its text. */
export function substitutionBodies(line: string): string[] {
  const bodies: string[] = [];
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '`') {
      const close = line.indexOf('`', i + 1);
      if (close < 0) break;
      bodies.push(line.slice(i + 1, close));
      i = close;
    } else if (line[i] === '$' && line[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < line.length; j++) {
        if (line[j] === '(') depth++;
        else if (line[j] === ')' && --depth === 0) break;
      }
      bodies.push(line.slice(i + 2, j));
      i = j;
    }
  }
  return bodies;
}

/** Programs that run the command after their own options: `sudo git push` runs `git push`. */
const WRAPPERS: Record<string, ReadonlySet<string>> = {
  // The options of each that take a value (the value is skipped with them).
  sudo: new Set(['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-U']),
  doas: new Set(['-u', '-C']),
  env: new Set(['-u', '-C', '-S']),
  command: new Set(),
  builtin: new Set(),
  exec: new Set(['-a']),
  nohup: new Set(),
  time: new Set(['-f', '-o']),
  nice: new Set(['-n']),
  ionice: new Set(['-c', '-n', '-p']),
  stdbuf: new Set(['-i', '-o', '-e']),
  timeout: new Set(['-s', '-k']),
  xargs: new Set(['-I', '-L', '-n', '-P', '-s', '-d', '-E', '-a']),
  watch: new Set(['-n', '-d']),
};
const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'fish']);

/** The program's name without its directory: `/usr/bin/git` is `git`. */
export function programName(word: string): string {
  return word.replace(/^.*\//, '');
}

/**
 * What a command runs behind a wrapper, and the lines a shell is handed with `-c`: one level
 * (the caller recurses). Empty when the command is not a wrapper.
 */
function unwrap(command: readonly string[]): { commands: string[][]; lines: string[] } {
  const words = withoutAssignments(command);
  const name = programName(words[0] ?? '');
  if (SHELLS.has(name)) {
    const c = words.indexOf('-c');
    return { commands: [], lines: c > 0 && words[c + 1] !== undefined ? [words[c + 1]!] : [] };
  }
  const valued = WRAPPERS[name];
  if (!valued) return { commands: [], lines: [] };
  let i = 1;
  // `timeout 5 cmd`: its first operand is the duration.
  let operand = name === 'timeout';
  for (; i < words.length; i++) {
    const w = words[i]!;
    if (name === 'env' && ASSIGNMENT.test(w)) continue;
    if (w === '--') {
      i++;
      break;
    }
    if (w.startsWith('-') && w.length > 1) {
      if (valued.has(w)) i++;
      continue;
    }
    if (operand) {
      operand = false;
      continue;
    }
    break;
  }
  const rest = words.slice(i);
  return { commands: rest.length ? [rest] : [], lines: [] };
}

/**
 * Every command a line may run, for the deny rules: its simple commands, what wrappers and
 * `bash -c` run, and what runs in its substitutions, a few levels deep. It reads more than the
 * shell would run (a `$( )` inside single quotes counts too): a deny rule errs on refusing.
 */
export function commandsToDeny(line: string, depth = 0): string[][] {
  const out: string[][] = [];
  const visit = (command: string[], level: number) => {
    out.push(command);
    if (level > 4) return;
    const inner = unwrap(command);
    for (const c of inner.commands) visit(c, level + 1);
    for (const l of inner.lines) out.push(...commandsToDeny(l, depth + 1));
  };
  for (const c of parseCommand(line).commands) visit(c, 0);
  if (depth < 4) for (const body of substitutionBodies(line)) out.push(...commandsToDeny(body, depth + 1));
  return out;
}
