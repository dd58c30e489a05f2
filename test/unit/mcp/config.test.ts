import assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadMcpConfig } from '../../../extension/core/mcp/config';
import { parseJsonc } from '../../../extension/core/mcp/jsonc';
import { mcpToolName, uniqueName } from '../../../extension/core/mcp/names';
import { McpConfigError, parseEnvFile, resolveServerDef } from '../../../extension/core/mcp/variables';
import { tempDir, writeTree } from '../tools/helpers';

describe('MCP config', () => {
  it('reads .vscode/mcp.json (with comments), .mcp.json and the setting, each with its source; later sources replace same names', () => {
    const root = tempDir('sp-mcpcfg-');
    writeTree(root, {
      '.vscode/mcp.json': `{
        // VS Code's own format
        "inputs": [{ "type": "promptString", "id": "token", "description": "GitHub token", "password": true }],
        "servers": {
          "github": { "type": "http", "url": "https://api.example.com/mcp", "headers": { "Authorization": "Bearer \${input:token}" } },
          "files": { "command": "node", "args": ["server.js", 3], "env": { "A": "1" }, },
        },
      }`,
      '.mcp.json': JSON.stringify({ mcpServers: { files: { command: 'old' }, db: { type: 'sse', url: 'http://127.0.0.1:9/sse' } } }),
    });
    const cfg = loadMcpConfig({ workspaceRoot: root, settingServers: { tools: { command: 'tools-server' } }, settingOrigin: 'user settings (~/.snowpea/settings.json)' });
    const by = Object.fromEntries(cfg.servers.map((s) => [s.name, s]));
    assert.deepEqual(Object.keys(by).sort(), ['db', 'files', 'github', 'tools']);
    assert.equal(by.github.source.label, '.vscode/mcp.json');
    assert.equal(by.github.transport, 'http');
    assert.deepEqual(by.github.inputs?.map((i) => i.id), ['token']);
    assert.deepEqual([by.files.source.label, by.files.command, by.files.args], ['.vscode/mcp.json', 'node', ['server.js', '3']]);
    assert.deepEqual([by.db.source.label, by.db.transport], ['.mcp.json', 'sse']);
    assert.equal(by.tools.source.label, 'setting mcp.servers (user settings (~/.snowpea/settings.json))');
    assert.equal(by.tools.source.workspace, false);
    assert.equal(by.github.source.workspace, true);
    assert.deepEqual(cfg.problems, ['server "files" from .mcp.json is replaced by the one in .vscode/mcp.json']);
  });

  it('reports broken files and entries with their source instead of throwing; workspace settings count as workspace-defined', () => {
    const root = tempDir('sp-mcpcfg-');
    writeTree(root, { '.mcp.json': '{ "mcpServers": { "x": ', '.vscode/mcp.json': JSON.stringify({ servers: { bad: { type: 'ws', url: 'x' }, nocmd: { args: [] } } }) });
    const cfg = loadMcpConfig({ workspaceRoot: root, settingServers: { w: { url: 'http://127.0.0.1:1/mcp' } }, settingOrigin: 'workspace settings (.snowpea/settings.json)', settingIsWorkspace: true });
    assert.match(cfg.problems[0], /^\.mcp\.json: not valid JSON/);
    assert.ok(cfg.problems.includes('.vscode/mcp.json: server "bad": unknown "type" "ws" (use stdio, http or sse)'));
    assert.ok(cfg.problems.includes('.vscode/mcp.json: server "nocmd": "command" (a string) is required for a stdio server'));
    assert.equal(cfg.servers.find((s) => s.name === 'bad')!.error !== undefined, true);
    assert.equal(cfg.servers.find((s) => s.name === 'w')!.source.workspace, true);
  });

  it('hashes the definition: the same entry keeps its hash, any change (or another workspace) gives a new one', () => {
    const a = tempDir('sp-mcpcfg-');
    const b = tempDir('sp-mcpcfg-');
    const def = { mcpServers: { s: { command: 'srv', args: ['--a'] } } };
    writeTree(a, { '.mcp.json': JSON.stringify(def) });
    writeTree(b, { '.mcp.json': JSON.stringify(def) });
    const h1 = loadMcpConfig({ workspaceRoot: a }).servers[0].hash;
    assert.equal(loadMcpConfig({ workspaceRoot: a }).servers[0].hash, h1);
    assert.notEqual(loadMcpConfig({ workspaceRoot: b }).servers[0].hash, h1, 'per workspace');
    writeTree(a, { '.mcp.json': JSON.stringify({ mcpServers: { s: { command: 'srv', args: ['--b'] } } }) });
    assert.notEqual(loadMcpConfig({ workspaceRoot: a }).servers[0].hash, h1, 'changed args');
  });

  it('substitutes ${env:}, ${workspaceFolder}, ${userHome}, .mcp.json ${VAR:-default}, and an envFile', async () => {
    const root = tempDir('sp-mcpcfg-');
    writeTree(root, {
      '.env.mcp': '# comment\nFROM_FILE="file value"\nexport B=2\n',
      '.vscode/mcp.json': JSON.stringify({ servers: { v: { command: '${workspaceFolder}/bin/srv', args: ['--home=${userHome}', '--tok=${env:TOK}'], env: { X: '${env:MISSING}' }, envFile: '${workspaceFolder}/.env.mcp', cwd: 'sub' } } }),
      '.mcp.json': JSON.stringify({ mcpServers: { m: { type: 'http', url: 'http://${HOST:-127.0.0.1}:${PORT}/mcp', headers: { k: '${TOK}' } } } }),
    });
    const servers = loadMcpConfig({ workspaceRoot: root }).servers;
    const env = { TOK: 'secret', PORT: '8080' };
    const v = await resolveServerDef(servers.find((s) => s.name === 'v')!, { workspaceRoot: root, env });
    assert.equal(v.command, `${root}/bin/srv`);
    assert.deepEqual(v.args, [`--home=${os.homedir()}`, '--tok=secret']);
    assert.deepEqual(v.env, { FROM_FILE: 'file value', B: '2', X: '' });
    assert.equal(v.cwd, path.join(root, 'sub'));
    const m = await resolveServerDef(servers.find((s) => s.name === 'm')!, { workspaceRoot: root, env });
    assert.equal(m.url, 'http://127.0.0.1:8080/mcp');
    assert.deepEqual(m.headers, { k: 'secret' });
  });

  it('${input:...} is a clear error without a resolver, and asks the resolver once per server otherwise', async () => {
    const root = tempDir('sp-mcpcfg-');
    writeTree(root, {
      '.vscode/mcp.json': JSON.stringify({ inputs: [{ id: 'key', type: 'promptString', description: 'API key' }], servers: { s: { command: 'x', args: ['${input:key}', '${input:key}'], env: { K: '${input:key}' } } } }),
    });
    const def = loadMcpConfig({ workspaceRoot: root }).servers[0];
    await assert.rejects(resolveServerDef(def, { workspaceRoot: root, env: {} }), (e: Error) => {
      assert.ok(e instanceof McpConfigError);
      assert.match(e.message, /\.vscode\/mcp\.json: server "s" needs \$\{input:key\} \(API key\), which only VS Code can ask for; outside VS Code put the value in an environment variable and use \$\{env:NAME\}/);
      return true;
    });
    const asked: string[] = [];
    const r = await resolveServerDef(def, { workspaceRoot: root, env: {}, resolveInput: async (i) => (asked.push(`${i.id}:${i.description}`), 'k-123') });
    assert.deepEqual(r.args, ['k-123', 'k-123']);
    assert.deepEqual(r.env, { K: 'k-123' });
    assert.deepEqual(asked, ['key:API key']);
    const other = { ...def, args: ['${command:foo}'], env: {} };
    await assert.rejects(resolveServerDef(other, { workspaceRoot: root, env: {} }), /uses \$\{command:foo\}, which Snowpea does not support/);
  });

  it('names tools mcp__<server>__<tool> in [a-zA-Z0-9_-], at most 64 characters, unique', () => {
    assert.equal(mcpToolName('github', 'create_issue'), 'mcp__github__create_issue');
    assert.equal(mcpToolName('my server', 'files.read/all'), 'mcp__my_server__files_read_all');
    const long = mcpToolName('a-very-long-server-name-for-testing', 'an_even_longer_tool_name_that_goes_on_and_on');
    assert.equal(long.length, 64);
    assert.match(long, /^mcp__a-very-long-server-name-for-testing__an_even_longer_[a-z0-9_]*_[0-9a-f]{6}$/);
    assert.notEqual(long, mcpToolName('a-very-long-server-name-for-testing', 'an_even_longer_tool_name_that_goes_on_and_off'));
    assert.equal(uniqueName('mcp__s__t', (n) => n === 'mcp__s__t'), 'mcp__s__t_2');
  });

  it('reads JSONC comments and trailing commas but not inside strings (issue 21: jsonc-parser)', () => {
    assert.deepEqual(parseJsonc('\uFEFF{"a": "http://x/*y*/", // c\n "b": [1,2,],}'), { a: 'http://x/*y*/', b: [1, 2] });
    assert.deepEqual(parseEnvFile('A=1\n#B=2\nC = "x y"'), { A: '1', C: 'x y' });
  });

  it('names the first JSONC error with its line and column, and the file in the problem (issue 21: jsonc-parser)', () => {
    assert.throws(() => parseJsonc('{\n  "a": 1,\n  "b" 2\n}'), { name: 'SyntaxError', message: 'colon expected at line 3, column 7' });
    assert.throws(() => parseJsonc('{ "a": 1 /* open'), { message: 'unexpected end of comment at line 1, column 10' });
    assert.throws(() => parseJsonc(''), { message: 'value expected at line 1, column 1' });
    const root = tempDir('sp-mcpcfg-');
    writeTree(root, { '.vscode/mcp.json': '{\n  // servers\n  "servers": { "a": { "command": "x" } }\n  "inputs": []\n}' });
    const cfg = loadMcpConfig({ workspaceRoot: root });
    assert.deepEqual(cfg.problems, ['.vscode/mcp.json: not valid JSON (comma expected at line 4, column 3)']);
  });
});
