import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { stdioEntry } from '../mcp/fixture';
import { cli, cliWorld, root } from './run-cli';

/** @modelcontextprotocol/server-memory from the npm registry (a devDependency), started through its bin as a user's config would. */
function memoryServerEntry(memoryFile: string): Record<string, unknown> {
  const pkgDir = path.join(root, 'node_modules/@modelcontextprotocol/server-memory');
  const bin = (JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mcp-server-memory'];
  return { command: process.execPath, args: [path.join(pkgDir, bin)], env: { MEMORY_FILE_PATH: memoryFile } };
}

const deferredLine = (body: any): string => (body.messages[0].content as string).split('\n').find((l) => l.startsWith('Deferred')) ?? '';
const WAIT_LINE = /^snowpea: waiting for the MCP server "(\w+)" to list its tools \(up to 30 s\)…$/m;

describe('issue 18, MCP servers on first use (CLI bundle)', function () {
  this.timeout(120_000);
  const world = cliWorld('sp-mcp1');

  const writeJson = (rel: string, v: unknown) => {
    fs.mkdirSync(path.dirname(path.join(world.ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(world.ws, rel), JSON.stringify(v));
  };

  it('MCP on first use: `tools list --json --yes` waits for a server new in .vscode/mcp.json (progress on stderr) and lists its tools as deferred', async () => {
    writeJson('.vscode/mcp.json', { servers: { fx: stdioEntry() } });
    const run = await cli(['tools', 'list', '--json', '--yes'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stderr.match(WAIT_LINE)?.[1], 'fx', run.stderr);
    const rows = JSON.parse(run.stdout) as Array<{ name: string; group: string; deferred: boolean }>;
    const mine = rows.filter((r) => r.group === 'mcp:fx');
    assert.equal(mine.length, 10, run.stdout);
    assert.deepEqual(
      mine.find((r) => r.name === 'mcp__fx__echo'),
      { name: 'mcp__fx__echo', group: 'mcp:fx', permission: 'exec', summary: 'Echo the text back.', deferred: true },
    );
    assert.ok(mine.every((r) => r.deferred));
  });

  it('MCP on first use: without --yes (no terminal) a workspace server is not started, not waited for, not listed', async () => {
    const marker = path.join(world.ws, 'started.log');
    writeJson('.mcp.json', { mcpServers: { fx: stdioEntry({ MCP_FIXTURE_LOG: marker }) } });
    const run = await cli(['tools', 'list', '--json'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /waiting for the MCP server/);
    assert.ok(!(JSON.parse(run.stdout) as Array<{ group: string }>).some((r) => r.group === 'mcp:fx'));
    assert.equal(fs.existsSync(marker), false, 'the server started without consent');
  });

  it('MCP consent: a run without a terminal asked nobody, so it remembers no answer; a later --yes run starts the server', async () => {
    writeJson('.mcp.json', { mcpServers: { fx: stdioEntry() } });
    const first = await cli(['tools', 'list', '--json'], { cwd: world.ws, home: world.home });
    assert.ok(!(JSON.parse(first.stdout) as Array<{ group: string }>).some((r) => r.group === 'mcp:fx'));
    const second = await cli(['tools', 'list', '--json', '--yes'], { cwd: world.ws, home: world.home });
    assert.equal(second.code, 0, second.stderr);
    assert.ok((JSON.parse(second.stdout) as Array<{ group: string }>).some((r) => r.group === 'mcp:fx'), second.stderr);
  });

  it('MCP on first use: `run --yes` sends its FIRST request with mcp:fx in the Deferred line', async () => {
    writeJson('.mcp.json', { mcpServers: { fx: stdioEntry() } });
    world.server.enqueue({ text: 'hello' });
    const run = await cli(['run', 'hi', '--base-url', world.server.baseUrl, '--model', 'gpt-4o', '--yes'], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    assert.match(deferredLine(world.server.chatRequests()[0].body), /mcp:fx \(10\)$/);
    assert.equal(run.stderr.match(WAIT_LINE)?.[1], 'fx', run.stderr);
  });

  it('MCP on first use: `mcp list` waits for a new server from the settings and shows it running with its tool count', async () => {
    const settings = path.join(world.home, 'mine.json');
    fs.writeFileSync(settings, JSON.stringify({ mcp: { servers: { fx: stdioEntry() } } }));
    const json = await cli(['mcp', 'list', '--json', '--settings', settings], { cwd: world.ws, home: world.home });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(json.stderr.match(WAIT_LINE)?.[1], 'fx', json.stderr);
    const [fx] = JSON.parse(json.stdout) as Array<{ name: string; state: string; toolCount: number; toolsFrom: string }>;
    assert.deepEqual([fx.name, fx.state, fx.toolCount, fx.toolsFrom], ['fx', 'running', 10, 'live']);
    // Known now (its tool list is cached): the next list does not start it, and says so.
    const run = await cli(['mcp', 'list', '--settings', settings], { cwd: world.ws, home: world.home });
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /waiting for/);
    assert.match(run.stdout, /^fx\s+idle \(tools cached\)\s+10 tools\s+/m, run.stdout);
  });

  it('MCP on first use with a third-party server (@modelcontextprotocol/server-memory from npm): listed by `tools list --json` and named in the first request', async () => {
    const memoryFile = path.join(world.home, 'memory.jsonl');
    writeJson('.mcp.json', { mcpServers: { memory: memoryServerEntry(memoryFile) } });
    const list = await cli(['tools', 'list', '--json', '--yes'], { cwd: world.ws, home: world.home });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(list.stderr.match(WAIT_LINE)?.[1], 'memory', list.stderr);
    const rows = (JSON.parse(list.stdout) as Array<{ name: string; group: string; deferred: boolean }>).filter((r) => r.group === 'mcp:memory');
    const names = rows.map((r) => r.name);
    for (const t of ['create_entities', 'read_graph', 'search_nodes']) assert.ok(names.includes(`mcp__memory__${t}`), `${t} in ${names.join(', ')}`);
    assert.ok(rows.every((r) => r.deferred));

    // A fresh SNOWPEA_HOME: the server is new again for `run`, whose first request must name it.
    const home2 = fs.mkdtempSync(path.join(path.dirname(world.home), 'sp-mcp1-home2-'));
    world.server.enqueue({ toolCalls: [{ id: 'c1', name: 'tool_search', arguments: JSON.stringify({ query: 'select:mcp__memory__read_graph' }) }] }, { toolCalls: [{ id: 'c2', name: 'mcp__memory__read_graph', arguments: '{}' }] }, { text: 'done' });
    const run = await cli(['run', 'remember', '--base-url', world.server.baseUrl, '--model', 'gpt-4o', '--yes'], { cwd: world.ws, home: home2 });
    assert.equal(run.code, 0, run.stderr);
    const bodies = world.server.chatRequests().map((r) => r.body);
    assert.match(deferredLine(bodies[0]), new RegExp(`mcp:memory \\(${rows.length}\\)$`));
    const toolMsgs = bodies[2].messages.filter((m: any) => m.role === 'tool').map((m: any) => m.content as string);
    assert.match(toolMsgs[0], /^loaded mcp__memory__read_graph/);
    assert.match(toolMsgs[1], /"entities":\s*\[\]/, toolMsgs[1]);
  });
});
