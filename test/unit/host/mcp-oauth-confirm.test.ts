import { vscodeStandIn } from './vscode-stand-in';
import assert from 'node:assert/strict';

/** What the sign-in modal showed. */
interface Shown {
  text: string;
  detail?: string;
  buttons: string[];
}

describe('MCP sign-in confirmation (VS Code modal)', () => {
  const window = vscodeStandIn.window as Record<string, unknown>;
  const original = { ...window };
  after(() => Object.assign(window, original));

  async function confirm(answer: string | undefined, name: string, serverUrl: string, authUrl: string): Promise<{ ok: boolean; shown: Shown[] }> {
    const shown: Shown[] = [];
    window.showWarningMessage = (text: string, ...rest: unknown[]) => {
      const options = rest.find((r): r is { detail?: string } => typeof r === 'object' && r !== null);
      shown.push({ text, detail: options?.detail, buttons: rest.filter((r): r is string => typeof r === 'string') });
      return Promise.resolve(answer);
    };
    const { hostSignInUi } = await import('../../../extension/host/mcp/mcp-oauth');
    const ok = await hostSignInUi.confirmOpen(new URL(authUrl), { name, url: serverUrl });
    return { ok, shown };
  }

  it('names the server, its host and the authorization host, with a name from the workspace escaped', async () => {
    const { ok, shown } = await confirm('Open Browser', 'gh\u202eexe', 'https://mcp.example.com/v1/mcp', 'https://login.example.org/authorize?client_id=x&state=s');
    assert.equal(ok, true);
    assert.equal(shown.length, 1);
    assert.equal(shown[0].text, 'Snowpea: sign in to the MCP server "gh\\u{202e}exe" (mcp.example.com)?');
    assert.match(shown[0].detail ?? '', /^Your browser opens https:\/\/login\.example\.org to sign in\. .* sent only to https:\/\/mcp\.example\.com\.$/);
    assert.ok(!(shown[0].detail ?? '').includes('state=s'), 'the authorization URL itself (with its state) is not shown');
    assert.deepEqual(shown[0].buttons, ['Open Browser']);
  });

  it('a look-alike host shows in its punycode form; dismissing the modal is a no', async () => {
    const { ok, shown } = await confirm(undefined, 'x', 'https://mcp.example.com/mcp', 'https://gіthub.com/login/oauth/authorize');
    assert.equal(ok, false);
    assert.match(shown[0].detail ?? '', /opens https:\/\/xn--gthub-n2e\.com to sign in/);
  });
});
