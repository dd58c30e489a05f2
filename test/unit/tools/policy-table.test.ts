import assert from 'node:assert/strict';
import { approvalDecision, decide, type CallFacts, type PathFact } from '../../../extension/core/tools/policy/decide';
import { consentFacts } from '../../../extension/core/tools/policy/facts';
import { ApprovalMemory } from '../../../extension/core/tools/policy/memory';
import type { ToolContext } from '../../../extension/core/tools/types';
import type { Permission } from '../../../extension/core/tools/types';

type Row = {
  /** What the row shows. */
  case: string;
  permission: Permission;
  mode?: 'code' | 'plan' | 'ask';
  child?: 'general' | 'explore';
  trusted?: boolean;
  path?: PathFact['class'];
  auto?: 'user' | 'workspace';
  yes?: boolean;
  always?: boolean;
  name?: string;
  needsTrust?: boolean;
  expect: 'allow' | 'ask' | 'always-ask' | 'mode_blocked' | 'policy_blocked';
};

const READ_ONLY = new Set<Permission>(['read', 'network', 'interact', 'agent']);

function facts(r: Row): CallFacts {
  const name = r.name ?? `t_${r.permission}`;
  return {
    tool: { name, permission: r.permission, traits: { readOnly: READ_ONLY.has(r.permission), repeat: 'plain', subagents: name !== 'delegate_task', images: false, needsTrust: r.needsTrust } },
    mode: r.mode ?? 'code',
    ...(r.child ? { child: { role: r.child, readOnlyRole: r.child === 'explore', roleKeeps: ['shell'] } } : {}),
    trusted: r.trusted ?? true,
    paths: r.path ? [{ class: r.path, reason: r.path === 'inside' || r.path === 'scratch' ? undefined : `${r.path} reason` }] : [],
    forceAsk: false,
    noAsk: false,
    summary: `${name} call`,
    autoApprove: { entries: r.auto ? [r.permission] : [], from: r.auto ?? 'default' },
    alwaysAllowed: !!r.always,
    preapproved: !!r.yes,
  };
}

function outcome(r: Row): Row['expect'] {
  const d = decide(facts(r));
  if (d.kind === 'allow') return 'allow';
  if (d.kind === 'ask') return d.request.alwaysAsk ? 'always-ask' : 'ask';
  return d.result.error!.code as Row['expect'];
}

/** The policy's decision over the dimensions that matter: mode, subagent role, trust, path class, permission, who set autoApprove, --yes, "always". */
const TABLE: Row[] = [
  { case: 'read inside the workspace runs', permission: 'read', path: 'inside', expect: 'allow' },
  { case: 'read of a scratch file runs', permission: 'read', path: 'scratch', expect: 'allow' },
  { case: 'read outside asks every time', permission: 'read', path: 'outside', expect: 'always-ask' },
  { case: 'read of ~/.ssh (sensitive) asks every time', permission: 'read', path: 'sensitive', expect: 'always-ask' },
  { case: 'sensitive asks even with --yes', permission: 'read', path: 'sensitive', yes: true, expect: 'always-ask' },
  { case: 'write asks', permission: 'write', path: 'inside', expect: 'ask' },
  { case: 'write auto-approved by the user runs', permission: 'write', path: 'inside', auto: 'user', expect: 'allow' },
  { case: 'H1: write auto-approved by a workspace source still asks', permission: 'write', path: 'inside', auto: 'workspace', expect: 'ask' },
  { case: 'H1: exec auto-approved by a workspace source still asks', permission: 'exec', auto: 'workspace', expect: 'ask' },
  { case: 'exec auto-approved by the user runs', permission: 'exec', auto: 'user', expect: 'allow' },
  { case: 'protected write asks even when the user auto-approved writes', permission: 'write', path: 'protected', auto: 'user', expect: 'always-ask' },
  { case: 'L5: protected write asks even with --yes', permission: 'write', path: 'protected', yes: true, expect: 'always-ask' },
  { case: 'L5: write outside asks even with --yes', permission: 'write', path: 'outside', yes: true, expect: 'always-ask' },
  { case: 'protected write asks even after "always"', permission: 'write', path: 'protected', always: true, expect: 'always-ask' },
  { case: '--yes approves an ordinary write', permission: 'write', path: 'inside', yes: true, expect: 'allow' },
  { case: '"always" for the tool skips the next ordinary ask', permission: 'exec', always: true, expect: 'allow' },
  { case: 'network asks', permission: 'network', expect: 'ask' },
  { case: 'interact asks', permission: 'interact', expect: 'ask' },
  { case: 'agent (delegate_task) runs; its child asks for itself', permission: 'agent', expect: 'allow' },
  { case: 'plan mode refuses writes', permission: 'write', mode: 'plan', path: 'inside', auto: 'user', expect: 'mode_blocked' },
  { case: 'ask mode refuses exec even with --yes', permission: 'exec', mode: 'ask', yes: true, expect: 'mode_blocked' },
  { case: 'plan mode reads', permission: 'read', mode: 'plan', path: 'inside', expect: 'allow' },
  { case: 'M5: a general child of a plan-mode parent (inherits plan) cannot write', permission: 'write', mode: 'plan', child: 'general', auto: 'user', expect: 'mode_blocked' },
  { case: 'M5: a general child of a plan-mode parent cannot run shell', permission: 'exec', mode: 'plan', child: 'general', name: 'shell', auto: 'user', expect: 'mode_blocked' },
  { case: 'a general child in code mode writes with approval', permission: 'write', child: 'general', path: 'inside', expect: 'ask' },
  { case: 'an explore child cannot write', permission: 'write', child: 'explore', auto: 'user', expect: 'policy_blocked' },
  { case: 'an explore child keeps shell, which asks', permission: 'exec', child: 'explore', name: 'shell', expect: 'ask' },
  { case: 'an explore child cannot execute_code', permission: 'exec', child: 'explore', name: 'execute_code', expect: 'policy_blocked' },
  { case: 'a child cannot delegate', permission: 'agent', child: 'general', name: 'delegate_task', expect: 'policy_blocked' },
  { case: 'Restricted Mode: reads run', permission: 'read', trusted: false, path: 'inside', expect: 'allow' },
  { case: 'Restricted Mode: reads outside still ask', permission: 'read', trusted: false, path: 'outside', expect: 'always-ask' },
  { case: 'Restricted Mode: user-approved writes are refused', permission: 'write', trusted: false, auto: 'user', expect: 'policy_blocked' },
  { case: 'Restricted Mode: --yes does not run exec', permission: 'exec', trusted: false, yes: true, expect: 'policy_blocked' },
  { case: 'Restricted Mode: git reads (needsTrust) are refused', permission: 'read', trusted: false, needsTrust: true, expect: 'policy_blocked' },
  { case: 'Restricted Mode: network is refused', permission: 'network', trusted: false, expect: 'policy_blocked' },
];

describe('tool policy: decision table', () => {
  for (const row of TABLE) {
    it(`${row.case} -> ${row.expect}`, () => assert.equal(outcome(row), row.expect));
  }

  it('a refusal tells the model what to do instead; an always-ask request names its reason and hides "always"', () => {
    const blocked = decide(facts({ case: '', permission: 'write', mode: 'ask', expect: 'mode_blocked' }));
    assert.equal(blocked.kind, 'refuse');
    assert.match(blocked.kind === 'refuse' ? blocked.result.content : '', /set_mode with mode "code"/);
    // Plan mode is the user's: it ends when they approve the plan, so the model is told to answer with it.
    const planned = decide(facts({ case: '', permission: 'write', mode: 'plan', expect: 'mode_blocked' }));
    assert.match(planned.kind === 'refuse' ? planned.result.content : '', /not available in plan mode.*answer with your plan; the user approves it to switch to act mode/);
    const ask = decide(facts({ case: '', permission: 'write', path: 'protected', expect: 'always-ask' }));
    assert.equal(ask.kind === 'ask' && ask.request.reason, 'protected reason');
  });

  describe("the browser's mid-call consent (an origin it is about to open) is judged by the same approval gate", () => {
    type ConsentRow = { case: string; auto?: string[]; from?: 'user' | 'workspace'; always?: boolean; yes?: boolean; expect: 'allow' | 'ask' };
    const rows: ConsentRow[] = [
      { case: 'nothing allowed ahead: asks', expect: 'ask' },
      { case: 'the user auto-approved network: runs', auto: ['network'], expect: 'allow' },
      { case: 'the user auto-approved the tool by name: runs', auto: ['browser_navigate'], expect: 'allow' },
      { case: 'a workspace auto-approved network: still asks', auto: ['network'], from: 'workspace', expect: 'ask' },
      { case: 'an earlier "always" for the tool: runs', always: true, expect: 'allow' },
      { case: '--yes: runs', yes: true, expect: 'allow' },
      { case: 'another tool auto-approved: asks', auto: ['browser_click'], expect: 'ask' },
    ];
    for (const r of rows) {
      it(`${r.case} -> ${r.expect}`, () => {
        const approvals = new ApprovalMemory(!!r.yes, r.from ?? 'user');
        if (r.always) approvals.always.add('browser_navigate');
        const ctx = { settings: { 'approvals.autoApprove': r.auto ?? [] }, approvals } as unknown as ToolContext;
        const d = approvalDecision(consentFacts('browser_navigate', 'open https://example.com', ctx));
        assert.equal(d.kind, r.expect);
        if (d.kind === 'ask') assert.deepEqual([d.request.permission, d.request.alwaysAsk, d.request.tool], ['network', false, 'browser_navigate']);
      });
    }
  });
});
