import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultSettings, type Settings } from '../../../extension/core/settings/schema';
import { createDiskFileReader } from '../../../extension/core/tools/disk-reader';
import { createBuiltinTools } from '../../../extension/core/tools/index';
import { decide, type Decision } from '../../../extension/core/tools/policy/decide';
import { callFacts } from '../../../extension/core/tools/policy/facts';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import type { AnyTool, ApprovalDecision, ApprovalRequest, Mode, ToolContext, ToolResult } from '../../../extension/core/tools/types';

const made: string[] = [];

/** A fresh temp folder (real path), removed after the run. */
export function tempDir(prefix = 'snowpea-tools-'): string {
  const d = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(d);
  return d;
}

after(() => {
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** Writes files into `root` from a map of relative path -> content. */
export function writeTree(root: string, files: Record<string, string | Uint8Array>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

export interface TestCtx extends ToolContext {
  asked: ApprovalRequest[];
  controller: AbortController;
  outputs: string[];
}

export interface CtxOptions {
  settings?: Partial<Settings>;
  mode?: Mode;
  decide?: (req: ApprovalRequest) => ApprovalDecision;
  extra?: Partial<ToolContext>;
}

/** A ToolContext on a workspace with disk I/O, recorded approvals (allowed unless `decide` says otherwise) and its own AbortController. */
export function makeCtx(workspaceRoot: string, o: CtxOptions = {}): TestCtx {
  const controller = new AbortController();
  const asked: ApprovalRequest[] = [];
  const outputs: string[] = [];
  const ctx: TestCtx = {
    workspaceRoot,
    fileReader: createDiskFileReader(),
    approver: {
      async approve(req) {
        asked.push(req);
        return o.decide ? o.decide(req) : 'allow';
      },
    },
    signal: controller.signal,
    settings: { ...defaultSettings(), ...o.settings },
    session: { id: 's1', mode: o.mode ?? 'code', role: 'general', isSubagent: false },
    scratchDir: path.join(tempDir('snowpea-scratch-'), 'scratch'),
    onOutput: (c) => void outputs.push(c),
    asked,
    controller,
    outputs,
    ...o.extra,
  };
  return ctx;
}

export const registry = () => new ToolRegistry(createBuiltinTools());

/** Invokes a tool through a registry of the built-in tools with JSON-encoded arguments. */
export function call(ctx: ToolContext, name: string, args: unknown, reg = registry()): Promise<ToolResult> {
  return reg.invoke(name, typeof args === 'string' ? args : JSON.stringify(args), ctx);
}

/** Whether a process is still running (a zombie counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

export { eventually } from '../../fixtures/eventually';

/** The policy's decision for one call, without running or asking (allow / ask / refuse). */
export function planOf(tool: AnyTool, args: unknown, ctx: ToolContext): Decision {
  return decide(callFacts(tool, args, ctx));
}
