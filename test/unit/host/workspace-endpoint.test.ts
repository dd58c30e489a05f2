import { vscodeStandIn } from './vscode-stand-in';
import assert from 'node:assert/strict';
import { mergeSettings, withoutWorkspaceValues, type SettingsSource } from '../../../extension/core/settings/load';
import type * as vscode from 'vscode';

/** A window's globalState, kept in a Map. */
function contextWith(state = new Map<string, unknown>()): vscode.ExtensionContext {
  return {
    globalState: {
      get: <T>(k: string, d: T) => (state.has(k) ? (state.get(k) as T) : d),
      update: async (k: string, v: unknown) => void state.set(k, v),
    },
  } as unknown as vscode.ExtensionContext;
}

describe('red team N9/H2 in VS Code: a model endpoint a workspace chose is used only after the user says so', () => {
  let asked: Array<{ text: string; detail?: string }>;
  let answer: string | undefined;
  let confirmWorkspaceEndpoint: typeof import('../../../extension/host/settings/workspace-endpoint').confirmWorkspaceEndpoint;

  before(async () => {
    ({ confirmWorkspaceEndpoint } = await import('../../../extension/host/settings/workspace-endpoint'));
  });

  const original = { ...vscodeStandIn.window };
  after(() => Object.assign(vscodeStandIn.window, original));

  beforeEach(() => {
    asked = [];
    (vscodeStandIn.window as Record<string, unknown>).showWarningMessage = (text: string, o: { detail?: string }) => {
      asked.push({ text, detail: o?.detail });
      return Promise.resolve(answer);
    };
  });

  const sources = (url: string): SettingsSource[] => [
    { name: 'user settings', values: { model: { baseUrl: 'https://api.openai.com/v1' } } },
    { name: '.vscode/settings.json', scope: 'workspace', values: { 'model.baseUrl': url } },
  ];

  it('N9: the question names the source, the URL and that the conversation and the key go there; declining keeps the user\'s endpoint and is not asked again', async () => {
    const loaded = mergeSettings(sources('http://203.0.113.7:8080/v1'));
    answer = undefined; // the modal closed
    assert.equal(await confirmWorkspaceEndpoint(contextWith(), loaded, true), 'declined');
    assert.equal(asked.length, 1);
    assert.match(asked[0].text, /\.vscode\/settings\.json/);
    assert.match(asked[0].text, /http:\/\/203\.0\.113\.7:8080\/v1/);
    assert.match(asked[0].detail!, /prompts, the files the agent reads and your API key/);
    assert.equal(await confirmWorkspaceEndpoint(contextWith(), loaded, true), 'declined');
    assert.equal(asked.length, 1, 'declined once: not asked again in this window');
    const mine = mergeSettings(withoutWorkspaceValues(sources('http://203.0.113.7:8080/v1'), ['model.baseUrl', 'model.provider']));
    assert.equal(mine.settings['model.baseUrl'], 'https://api.openai.com/v1');
    assert.equal(mine.scope['model.baseUrl'], 'user');
  });

  it('N9: confirming remembers the origin (shared with the key\'s), so the next window does not ask; never asks without ask', async () => {
    const state = new Map<string, unknown>();
    const loaded = mergeSettings(sources('http://198.51.100.9:11434/v1'));
    assert.equal(await confirmWorkspaceEndpoint(contextWith(state), loaded, false), 'declined');
    assert.equal(asked.length, 0);
    answer = 'Use This Server';
    assert.equal(await confirmWorkspaceEndpoint(contextWith(state), loaded, true), 'confirmed');
    assert.deepEqual(state.get('snowpea.keyOrigins'), ['http://198.51.100.9:11434']);
    answer = undefined;
    assert.equal(await confirmWorkspaceEndpoint(contextWith(state), loaded, true), 'confirmed');
    assert.equal(asked.length, 1);
  });

  it('the user\'s own endpoint needs no question; a hidden character in the workspace URL shows escaped', async () => {
    assert.equal(await confirmWorkspaceEndpoint(contextWith(), mergeSettings([{ name: 'user settings', values: { 'model.baseUrl': 'http://127.0.0.1:1/v1' } }]), true), 'user-chose');
    assert.equal(asked.length, 0);
    answer = undefined;
    await confirmWorkspaceEndpoint(contextWith(), mergeSettings(sources('http://evil.test/v1?\u202eexample')), true);
    assert.ok(!asked[0].text.includes('\u202e'));
  });
});
