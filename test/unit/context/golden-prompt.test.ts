/**
 * What the model sees, checked in: the system prompt and tools block of a default session's first
 * request and of a read-only (explore) child's. Any change to them is a reviewed diff of
 * test/fixtures/golden/*.json. After a deliberate change, regenerate with
 *   SNOWPEA_UPDATE_GOLDEN=1 npx mocha --node-option import=tsx --exit test/unit/context/golden-prompt.test.ts
 * and commit the files with the change.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHarness, type Harness } from '../../fixtures/agent-harness';

const GOLDEN = path.join(__dirname, '../../fixtures/golden');

interface Golden {
  system: string;
  tools: unknown[];
}

/** The request's system prompt (the temp workspace path written as <workspace>) and tools block. */
function golden(body: any, workspace: string): Golden {
  return { system: String(body.messages[0].content).split(workspace).join('<workspace>'), tools: body.tools ?? [] };
}

function check(name: string, actual: Golden): void {
  const file = path.join(GOLDEN, `${name}.json`);
  const text = JSON.stringify(actual, null, 2) + '\n';
  if (process.env.SNOWPEA_UPDATE_GOLDEN) {
    fs.mkdirSync(GOLDEN, { recursive: true });
    fs.writeFileSync(file, text);
    return;
  }
  assert.ok(fs.existsSync(file), `${file} is missing: generate it with SNOWPEA_UPDATE_GOLDEN=1 (see the head of this test)`);
  const expected = JSON.parse(fs.readFileSync(file, 'utf8')) as Golden;
  assert.equal(actual.system, expected.system, `the system prompt changed: review it and regenerate ${name}.json (SNOWPEA_UPDATE_GOLDEN=1)`);
  assert.deepEqual(actual.tools, expected.tools, `the tools block changed: review it and regenerate ${name}.json (SNOWPEA_UPDATE_GOLDEN=1)`);
}

describe('golden: the system prompt and tools block the model sees (issue 21)', function () {
  this.timeout(30_000);
  let h: Harness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('issue 21: a default session\'s first request and a read-only explore child\'s match the checked-in golden files', async () => {
    h = await createHarness({ settings: { 'model.name': 'gpt-4.1-mini' } });
    h.server.enqueue(
      { toolCalls: [{ id: 'd1', name: 'delegate_task', arguments: JSON.stringify({ task: 'find the entry point', agent: 'explore', max_rounds: 3 }) }] },
      { text: 'src/main.ts' },
      { text: 'done' },
    );
    const r = await h.agent.runTurn(h.agent.newSession(), 'where does it start?', new AbortController().signal);
    assert.equal(r.reason, 'done', r.error);
    const [parent, child] = h.bodies();
    check('first-request', golden(parent, h.workspace));
    check('explore-child', golden(child, h.workspace));
    // A read-only child gets a narrower eager set (the explore role's list in core/tools/roles.ts).
    const names = (child.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    assert.deepEqual(names, ['read_file', 'shell', 'grep', 'glob', 'tool_search']);
  });
});
