import assert from 'node:assert/strict';
import { consentDetails, shown } from '../../../extension/core/mcp/consent-text';
import type { McpServerDef } from '../../../extension/core/mcp/types';

describe('red team N2 (MCP consent): the consent text escapes every hidden character the chat and the CLI do', () => {
  it('N2: a word joiner, a soft hyphen and a tag character in an argument are written out, not hidden (they were missing from the consent\'s own list)', () => {
    const def = {
      name: 'tools',
      transport: 'stdio',
      command: 'node',
      args: ['server.js', 'safe\u2060--allow-all', 'x\u00ad', 'tag\u{e0041}'],
      source: { label: '.vscode/mcp.json', workspace: true },
    } as unknown as McpServerDef;
    const text = consentDetails(def);
    assert.match(text, /safe\\u\{2060\}--allow-all/);
    assert.match(text, /x\\u\{ad\}/);
    assert.match(text, /tag\\u\{e0041\}/);
    assert.doesNotMatch(text, /[\u2060\u00ad]|\u{e0041}/u);
  });

  it('controls and bidi stay escaped, and plain values stay bare', () => {
    assert.equal(shown('server.js'), 'server.js');
    assert.equal(shown('a\u202eb'), '"a\\u{202e}b"');
    assert.equal(shown('a\x1b[2Jb'), '"a\\u001b[2Jb"');
  });
});
