/**
 * A real Agent over a given state.db and scripted server: what a CLI run or a VS Code window
 * builds, for tests that close a store and open it again (resume after a stop or a crash).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Agent } from '../../../extension/core/agent/agent';
import { recordingLogger } from '../../fixtures/recording-logger';
import { createOpenAIClient } from '../../../extension/core/model/openai-client';
import { mergeSettings } from '../../../extension/core/settings/load';
import type { StateDb } from '../../../extension/core/store';
import { createDiskFileReader, createDiskFileWriter } from '../../../extension/core/tools/disk-reader';
import { createBuiltinTools } from '../../../extension/core/tools/index';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import type { ScriptedServer } from '../../fixtures/scripted-server';

export function agentOnStore(store: StateDb, server: ScriptedServer, workspace: string): { agent: Agent; log: ReturnType<typeof recordingLogger> } {
  const settings = mergeSettings([{ name: 'test', values: { 'model.baseUrl': server.baseUrl, 'model.name': 'gpt-4o' } }]).settings;
  const client = createOpenAIClient({ baseUrl: server.baseUrl, apiKey: 'k', model: 'gpt-4o', requestTimeoutS: 10, maxRetries: 0 });
  const log = recordingLogger();
  const agent = new Agent({
    workspaceRoot: workspace,
    settings: () => settings,
    client: () => client,
    registry: new ToolRegistry(createBuiltinTools()),
    store,
    fileReader: createDiskFileReader(),
    fileWriter: createDiskFileWriter(),
    approver: { approve: async () => 'allow' },
    logger: log,
    scratchRoot: fs.mkdtempSync(path.join(os.tmpdir(), 'sp-scratch-')),
  });
  return { agent, log };
}
