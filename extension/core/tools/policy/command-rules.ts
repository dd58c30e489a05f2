/**
 * Allow and deny rules for shell commands by prefix (`npm test`, `git status`, `rm -rf`), as
 * Cline, Copilot and Claude Code users keep them. The command line is read by command-line.ts
 * (`shell-quote` underneath) into its simple commands:
 * - a deny rule matching any command the line may run refuses the whole line: its simple commands,
 *   what runs behind `sudo`/`env`/`xargs`/`bash -c`, and what runs in `$( )` and backticks;
 * - an allow rule lets the line run without asking only when EVERY simple command matches an allow
 *   rule, and the line is one line with no command substitution, subshell or process substitution,
 *   no variable but a few harmless ones set before a command (`LD_PRELOAD=` would change what
 *   runs), and no redirection into a protected path (`.git/`, `.vscode/`, ...) or into a file the
 *   shell names by expansion (`$HOME/x`, `~/x`, `*`): those always ask.
 * A rule matches whole words: `npm test` matches `npm test -- --grep x`, not `npm testing`.
 */
import { assignmentsOf, commandsToDeny, parseCommand, programName, withoutAssignments } from './command-line';

export interface CommandRules {
  allow: readonly string[];
  deny: readonly string[];
}

/**
 * Variables a command may set before it and still be allowed by a rule: they change colours,
 * locale or logging, not which program runs or what it loads (`LD_PRELOAD=`, `GIT_SSH_COMMAND=`,
 * `NODE_OPTIONS=`, `PATH=` and every other one keep the line asking).
 */
const HARMLESS_VARIABLES = new Set(
  'CI NODE_ENV FORCE_COLOR NO_COLOR TERM COLUMNS LINES LANG LANGUAGE LC_ALL LC_CTYPE LC_MESSAGES TZ DEBUG RUST_BACKTRACE RUST_LOG PYTHONUNBUFFERED PYTHONDONTWRITEBYTECODE PYTHONHASHSEED'.split(' '),
);

/** Whether a rule's words are the first words of a simple command (leading `VAR=value` assignments skipped). */
export function ruleMatches(rule: string, command: readonly string[]): boolean {
  const words = parseCommand(rule).commands[0] ?? [];
  if (!words.length) return false;
  const rest = withoutAssignments(command);
  return words.length <= rest.length && words.every((w, i) => rest[i] === w);
}

/** A deny rule also matches the program named by its path (`/usr/bin/git push` for `git push`). */
function denyMatches(rule: string, command: readonly string[]): boolean {
  if (ruleMatches(rule, command)) return true;
  const rest = withoutAssignments(command);
  if (!rest.length) return false;
  return ruleMatches(rule, [programName(rest[0]!), ...rest.slice(1)]);
}

export type CommandVerdict = { kind: 'deny'; rule: string } | { kind: 'allow'; rules: string[] } | { kind: 'none'; why?: string };

/**
 * The rules' verdict on a command line. `protectedTarget` says why a redirection target is
 * protected (or undefined when it is not); such a line is never allowed by a rule.
 */
export function commandVerdict(line: string, rules: CommandRules, protectedTarget: (file: string) => string | undefined = () => undefined): CommandVerdict {
  if (rules.deny.length) {
    for (const cmd of commandsToDeny(line)) {
      const rule = rules.deny.find((r) => denyMatches(r, cmd));
      if (rule) return { kind: 'deny', rule };
    }
  }
  const parsed = parseCommand(line);
  if (!rules.allow.length || !parsed.commands.length) return { kind: 'none' };
  if (parsed.multiline) return { kind: 'none', why: 'it has more than one line, which allow rules do not cover' };
  if (parsed.substitution) return { kind: 'none', why: 'it runs a command substitution or subshell, which allow rules do not cover' };
  if (parsed.unclearRedirect) return { kind: 'none', why: 'it writes to a file named by a variable, `~` or a pattern, which allow rules do not cover' };
  const target = parsed.redirects.map(protectedTarget).find(Boolean);
  if (target) return { kind: 'none', why: `it writes ${target}` };
  const setting = parsed.commands.flatMap(assignmentsOf).find((a) => !HARMLESS_VARIABLES.has(a.slice(0, a.indexOf('='))));
  if (setting) return { kind: 'none', why: `it sets ${setting.slice(0, setting.indexOf('='))}, which allow rules do not cover` };
  const used: string[] = [];
  for (const cmd of parsed.commands) {
    const rule = rules.allow.find((r) => ruleMatches(r, cmd));
    if (!rule) return { kind: 'none', why: `\`${cmd.join(' ')}\` matches no allow rule` };
    if (!used.includes(rule)) used.push(rule);
  }
  return { kind: 'allow', rules: used };
}

/** The rules with `prefix` allowed (what a card's "always allow" keeps); undefined when a rule allows exactly it already. */
export function withAllowed(rules: CommandRules, prefix: string): CommandRules | undefined {
  if (rules.allow.includes(prefix)) return undefined;
  return { allow: [...rules.allow, prefix], deny: [...rules.deny] };
}

/**
 * The prefix an "always allow" answer offers for a command: its first word, and the second when
 * it is a subcommand (`npm test`, `git status`, `cargo build`), not a flag or a path. Undefined
 * when the line has more than one command or runs a substitution (those are judged part by part).
 */
export function suggestedPrefix(line: string): string | undefined {
  const parsed = parseCommand(line);
  if (parsed.substitution || parsed.multiline || parsed.commands.length !== 1) return undefined;
  const words = withoutAssignments(parsed.commands[0]!);
  const [first, second] = words;
  if (!first || /[\s'"\\$]/.test(first)) return undefined;
  const subcommand = SUBCOMMAND_TOOLS.has(first.replace(/^.*\//, '')) && second && /^[a-z][a-z0-9:_-]*$/i.test(second);
  return subcommand ? `${first} ${second}` : first;
}

/** Programs whose second word is a subcommand (`npm test`, `git status`): their prefix keeps it. */
const SUBCOMMAND_TOOLS = new Set(
  'npm pnpm yarn bun deno npx git gh cargo go docker podman kubectl helm terraform pip pip3 poetry uv pipenv conda dotnet gradle gradlew mvn mvnw make just bundle rake rails composer brew apt apt-get systemctl nx turbo lerna rustup swift'.split(' '),
);
