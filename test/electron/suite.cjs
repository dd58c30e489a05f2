// Runs inside the extension host of a desktop VS Code (see run.mjs).
const assert = require('node:assert/strict');
const vscode = require('vscode');

exports.run = async function run() {
  const ext = vscode.extensions.getExtension('snowpea.snowpea');
  assert.ok(ext, 'Snowpea is installed');
  await ext.activate();
  const commands = await vscode.commands.getCommands(true);
  for (const id of ['snowpea.newChat', 'snowpea.showTools', 'snowpea.openSettings', 'snowpea.showToolsJson']) {
    assert.ok(commands.includes(id), `${id} is registered`);
  }
  await vscode.commands.executeCommand('snowpea.showToolsJson');
  const doc = vscode.window.activeTextEditor?.document;
  assert.ok(doc && doc.languageId === 'json', 'Show Tools (JSON) opens a JSON document');
  const rows = JSON.parse(doc.getText());
  assert.ok(rows.some((r) => r.name === 'read_file' && r.deferred === false));
  assert.ok(rows.some((r) => r.name === 'git_diff' && r.deferred === true));
};
