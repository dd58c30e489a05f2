/**
 * Allow and deny rules for shell commands by prefix (`npm test`, `git status`, `rm -rf`), as
 * Cline, Copilot and Claude Code users keep them. The command line is parsed with `shell-quote`
 * (a well-kept POSIX-shell tokenizer, no regex guessing) into its simple commands:
 * - a deny rule matching any simple command refuses the whole line;
 * - an allow rule lets the line run without asking only when EVERY simple command matches an allow
 *   rule, and the line has no command substitution, subshell or process substitution, and no
 *   redirection into a protected path (`.git/`, `.vscode/`, ...), which always asks.
 * A rule matches whole words: `npm test` matches `npm test -- --grep x`, not `npm testing`.
 */
import { parse, type ParseEntry } from 'shell-quote';

export interface CommandRules {
  allow: readonly string[];
  deny: readonly string[];
}

/** A command line split into its simple commands (words), with what makes it unsafe to allow by rule. */
export interface ParsedCommand {
  commands: string[][];
  /** `$( )`, backticks, `( )` subshells, `<( )`: what runs cannot be judged by prefix. */
  substitution: boolean;
  /** Files written by `>`, `>>`, `&>`, `>|`. */
  redirects: string[];
}

const SEPARATORS = new Set(['&&', '||', ';', '|', '&', ';;', '|&']);
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>']);

/** Tokens of a command line; variables stay as written (`$HOME`), never expanded. */
function tokens(line: string): ParseEntry[] {
  return parse(line, (name) => `$${name}`);
}

export function parseCommand(line: string): ParsedCommand {
  const out: ParsedCommand = { commands: [], substitution: /`|\$\(|<\(|>\(/.test(line), redirects: [] };
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
    if ('op' in t) {
      if ('pattern' in t) {
        // A glob word (`*.ts`): shell-quote hands it over as its pattern.
        current.push((t as { pattern: string }).pattern);
      } else if (SEPARATORS.has(t.op)) {
        end();
      } else if (t.op === '(' || t.op === ')' || t.op === '<(' || t.op === '>(') {
        out.substitution = true;
        end();
      } else if (WRITES.has(t.op)) {
        const target = entries[i + 1];
        if (typeof target === 'string') out.redirects.push(target);
        i++;
      } else if (t.op === '>&' || t.op === '<' || t.op === '<&' || t.op === '<<' || t.op === '<<<') {
        i++;
      }
    }
  }
  end();
  return out;
}

/** Whether a rule's words are the first words of a simple command (leading `VAR=value` assignments skipped). */
export function ruleMatches(rule: string, command: readonly string[]): boolean {
  const words = parseCommand(rule).commands[0] ?? [];
  if (!words.length) return false;
  const start = command.findIndex((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
  if (start < 0) return false;
  const rest = command.slice(start);
  return words.length <= rest.length && words.every((w, i) => rest[i] === w);
}

export type CommandVerdict = { kind: 'deny'; rule: string } | { kind: 'allow'; rules: string[] } | { kind: 'none'; why?: string };

/**
 * The rules' verdict on a command line. `protectedTarget` says why a redirection target is
 * protected (or undefined when it is not); such a line is never allowed by a rule.
 */
export function commandVerdict(line: string, rules: CommandRules, protectedTarget: (file: string) => string | undefined = () => undefined): CommandVerdict {
  const parsed = parseCommand(line);
  for (const cmd of parsed.commands) {
    const rule = rules.deny.find((r) => ruleMatches(r, cmd));
    if (rule) return { kind: 'deny', rule };
  }
  if (!rules.allow.length || !parsed.commands.length) return { kind: 'none' };
  if (parsed.substitution) return { kind: 'none', why: 'it runs a command substitution or subshell, which allow rules do not cover' };
  const target = parsed.redirects.map(protectedTarget).find(Boolean);
  if (target) return { kind: 'none', why: `it writes ${target}` };
  const used: string[] = [];
  for (const cmd of parsed.commands) {
    const rule = rules.allow.find((r) => ruleMatches(r, cmd));
    if (!rule) return { kind: 'none', why: `\`${cmd.join(' ')}\` matches no allow rule` };
    if (!used.includes(rule)) used.push(rule);
  }
  return { kind: 'allow', rules: used };
}

/**
 * The prefix an "always allow" answer offers for a command: its first word, and the second when
 * it is a subcommand (`npm test`, `git status`, `cargo build`), not a flag or a path. Undefined
 * when the line has more than one command or runs a substitution (those are judged part by part).
 */
export function suggestedPrefix(line: string): string | undefined {
  const parsed = parseCommand(line);
  if (parsed.substitution || parsed.commands.length !== 1) return undefined;
  const all = parsed.commands[0]!;
  const start = all.findIndex((x) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(x));
  const words = start < 0 ? [] : all.slice(start);
  const [first, second] = words;
  if (!first || /[\s'"\\$]/.test(first)) return undefined;
  const subcommand = SUBCOMMAND_TOOLS.has(first.replace(/^.*\//, '')) && second && /^[a-z][a-z0-9:_-]*$/i.test(second);
  return subcommand ? `${first} ${second}` : first;
}

/** Programs whose second word is a subcommand (`npm test`, `git status`): their prefix keeps it. */
const SUBCOMMAND_TOOLS = new Set(
  'npm pnpm yarn bun deno npx git gh cargo go docker podman kubectl helm terraform pip pip3 poetry uv pipenv conda dotnet gradle gradlew mvn mvnw make just bundle rake rails composer brew apt apt-get systemctl nx turbo lerna rustup swift'.split(' '),
);
