import * as assert from 'node:assert/strict';
import { startScriptedServer, type ScriptedServer } from '../fixtures/scripted-server';
import { CHAT } from './harness/selectors';
import { packLmRelay } from './harness/lm-relay';
import { useVsCode } from './harness/use-vscode';

/**
 * model.provider "vscode-lm" in a real VS Code: a test-only extension provides `relay-model`
 * through vscode.lm and relays each request to the scripted server, so the test sees what
 * Snowpea sent through the editor's API.
 */
describe('e2e: the vscode-lm provider (the editor\'s language models)', function () {
  let model: ScriptedServer;
  let relay: string;
  before(async function () {
    model = await startScriptedServer({ models: ['relay-model'] });
    relay = await packLmRelay();
  });
  after(async function () {
    await model?.close();
  });

  const vscode = useVsCode(() => ({
    settings: { 'snowpea.model.provider': 'vscode-lm', 'snowpea.model.name': 'relay-model', 'chat.disableAIFeatures': false },
    env: { SNOWPEA_LM_RELAY_URL: model.baseUrl },
    extraExtensions: [relay],
    workspaceFiles: { 'notes.txt': 'relayed line\n' },
  }));

  it('chats a two-round tool-using turn through vscode.lm', async function () {
    const { workbench } = vscode();
    model.enqueue({ toolCalls: [{ name: 'read_file', arguments: '{"path":"notes.txt"}' }] }, { text: 'answered through the editor' });
    await workbench.openSnowpea();
    const frame = await workbench.findWebviewFrame(CHAT.composer);
    await frame.locator(CHAT.composer).fill('read notes.txt');
    await frame.locator(CHAT.composer).press('Enter');
    // The editor may ask once whether Snowpea may use another extension's models.
    const allow = workbench.page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Allow/ });
    const answer = frame.locator(CHAT.transcript).getByText('answered through the editor');
    await Promise.race([allow.first().waitFor({ timeout: 60_000 }).then(() => allow.first().click()), answer.waitFor({ timeout: 60_000 })]);
    await answer.waitFor({ state: 'visible', timeout: 60_000 });

    const bodies = model.chatRequests().map((r) => r.body);
    assert.equal(bodies.length, 2);
    assert.equal(bodies[0].model, 'relay-model');
    assert.ok(bodies[0].tools.some((t: any) => t.function.name === 'read_file'), 'the tools reached the model');
    assert.match(bodies[0].messages[0].content[0].text, /Snowpea/, 'the system prompt travels as the first user message');
    const tool = bodies[1].messages.find((m: any) => m.role === 'tool');
    assert.match(tool.content, /relayed line/, 'the tool result reached the model in round 2');
    const call = bodies[1].messages.find((m: any) => m.role === 'assistant');
    assert.equal(call.tool_calls[0].function.name, 'read_file');
    // No usage from the API: the meter shows the model's own count (as the window's fill), marked as approximate.
    await frame.locator('.meter-text', { hasText: /^~\d+% of [\d.]+[kM]? / }).first().waitFor({ state: 'visible' });
  });
});
