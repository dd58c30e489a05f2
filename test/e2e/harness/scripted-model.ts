import { startScriptedServer, type ScriptedServer, type ScriptedServerOptions } from '../../fixtures/scripted-server';
import { CHAT } from './selectors';
import type { Workbench } from './workbench';

/**
 * Gives the enclosing mocha suite a scripted OpenAI-compatible server, started before the suite's
 * VS Code (register it before `useVsCode`) and closed after. Returns a getter for the server.
 */
export function useScriptedModel(opts: ScriptedServerOptions = { models: ['scripted-model'] }): () => ScriptedServer {
  let model: ScriptedServer | undefined;
  before('start the scripted model server', async function () {
    model = await startScriptedServer(opts);
  });
  after(async function () {
    await model?.close();
    model = undefined;
  });
  return () => {
    if (!model) throw new Error('the scripted model server is not running (did its before hook fail?)');
    return model;
  };
}

/** User settings that point Snowpea at the scripted server. */
export function scriptedModelSettings(model: ScriptedServer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { 'snowpea.model.baseUrl': model.baseUrl, 'snowpea.model.name': 'scripted-model', ...extra };
}

/** The tool results the model received in one recorded chat request. */
export function toolResults(model: ScriptedServer, index: number): string[] {
  return model.chatRequests()[index].body.messages.filter((m: { role: string }) => m.role === 'tool').map((m: { content: string }) => m.content);
}

/** Types a prompt into the sidebar chat, sends it with Enter and waits until `answer` shows in the transcript. */
export async function chatTurn(workbench: Workbench, prompt: string, answer: string): Promise<void> {
  await workbench.openSnowpea();
  await workbench.expandView('Chat');
  const frame = await workbench.findWebviewFrame(CHAT.composer);
  await frame.locator(CHAT.composer).fill(prompt);
  await frame.locator(CHAT.composer).press('Enter');
  await frame.locator(CHAT.transcript).getByText(answer).waitFor({ state: 'visible' });
  // The turn ends once its checkpoint is recorded, a moment after the answer: wait for Send, so the
  // next message is not typed into a turn still running (a turn that goes on, to an approval say, is let be).
  await frame.getByRole('button', { name: 'Send' }).waitFor({ state: 'visible', timeout: 10_000 }).catch(() => undefined);
}
