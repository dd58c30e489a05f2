/**
 * A child subreaper for tool runs on Linux (red team L3). A process that leaves the run's process
 * group and clears its environment (`setsid -f env -i sleep 300`) used to be re-parented to init,
 * where neither the group kill nor the /proc scan for the run's marker could find it. Tool programs
 * now start under a small Perl wrapper that marks itself a child subreaper
 * (prctl(PR_SET_CHILD_SUBREAPER)), forks the program and waits for it: an orphan anywhere below is
 * re-parented to the wrapper instead of init, so it stays a descendant of the run and the kill's
 * parent-chain scan finds it. Node cannot call prctl itself, and a PID namespace or cgroup would need
 * privileges (or would kill the background servers a command is meant to leave running).
 *
 * When the wrapper cannot be used (no perl, not Linux, prctl refused) the program starts as before
 * and the kill report says it could only look for what it could find.
 */
import { execFile } from 'node:child_process';

/** prctl's syscall number per architecture (Node's process.arch); elsewhere no subreaper. */
const PRCTL: Partial<Record<string, number>> = { x64: 157, arm64: 167, riscv64: 167, loong64: 167, arm: 172, ia32: 172, s390x: 172, ppc64: 171 };

/**
 * The wrapper: `perl -e WRAPPER <nr> <program> <args...>` (perl-base is Essential on Debian and Ubuntu and
 * starts in a few milliseconds; Python's ctypes took 50 ms a run). fd 3 is a status pipe: closed when the
 * program's exec succeeds, "<errno> <message>" when it fails. With no program it prints its own path.
 */
const WRAPPER = String.raw`
use Fcntl;
my $nr = shift @ARGV;
my $reaper = syscall($nr, 36, 1, 0, 0, 0) == 0;
if (!@ARGV) { print "$^X
" if $reaper; exit($reaper ? 0 : 3); }
sub program {
  open(my $st, '>&=', 3) or exit 126;
  fcntl($st, F_SETFD, FD_CLOEXEC);
  exec { $ARGV[0] } @ARGV;
  my $e = $! + 0;
  syswrite($st, "$e $!");
  exit 127;
}
program() unless $reaper;
my $pid = fork;
program() if defined $pid && $pid == 0;
exit 126 unless defined $pid;
{ open(my $st, '>&=', 3); close($st); }
open(STDIN, '<', '/dev/null'); open(STDOUT, '>', '/dev/null'); open(STDERR, '>', '/dev/null');
while (1) {
  my $got = waitpid(-1, 0);
  exit 0 if $got == -1;
  last if $got == $pid;
}
my $status = $?;
if ($status & 127) { kill($status & 127, $$); }
exit($status >> 8);
`;

export interface WrappedCommand {
  command: string;
  args: string[];
  /** Whether orphans of the run stay its descendants (the wrapper is in place). */
  reaped: boolean;
}

let probe: Promise<string | undefined> | undefined;

/** The absolute path of a perl whose prctl(PR_SET_CHILD_SUBREAPER) works here, probed once. */
export function subreaperPerl(): Promise<string | undefined> {
  const nr = PRCTL[process.arch];
  if (process.platform !== 'linux' || nr === undefined || process.env.SNOWPEA_NO_SUBREAPER === '1') return Promise.resolve(undefined);
  probe ??= new Promise((resolve) => {
    execFile('perl', ['-e', WRAPPER, String(nr)], { timeout: 10_000, windowsHide: true }, (err, stdout) => {
      const exe = stdout.trim();
      resolve(!err && exe.startsWith('/') ? exe : undefined);
    });
  });
  return probe;
}

/** The command line that runs `command args` under the subreaper wrapper, or as is where it cannot. */
export async function underSubreaper(command: string, args: string[]): Promise<WrappedCommand> {
  const perl = await subreaperPerl();
  if (!perl) return { command, args, reaped: false };
  return { command: perl, args: ['-e', WRAPPER, String(PRCTL[process.arch]), command, ...args], reaped: true };
}

/** Reads what the wrapper wrote on its status pipe: "<errno> <message>" when the program could not start. */
export function execFailure(status: string, command: string): NodeJS.ErrnoException | undefined {
  const m = /^(\d+) (.*)$/s.exec(status.trim());
  if (!m) return undefined;
  const codes: Record<string, string> = { '2': 'ENOENT', '13': 'EACCES', '8': 'ENOEXEC', '20': 'ENOTDIR' };
  const code = codes[m[1]!] ?? `E${m[1]}`;
  const err: NodeJS.ErrnoException = new Error(`spawn ${command} ${code}${code === 'ENOENT' ? '' : `: ${m[2]}`}`);
  err.code = code;
  err.errno = -Number(m[1]);
  err.syscall = `spawn ${command}`;
  err.path = command;
  return err;
}
