import assert from 'node:assert/strict';
import { checkUrl, checkUrlWithoutDns, type PrivateNetwork, type Resolver } from '../../../extension/core/browser/url-policy';

/** A resolver we control: names map to answers; anything else does not resolve. It records what it was asked. */
function fakeResolver(table: Record<string, string[]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const r = (async (host: string) => {
    asked.push(host);
    const a = table[host];
    if (!a) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return a;
  }) as Resolver & { asked: string[] };
  r.asked = asked;
  return r;
}

const DNS: Record<string, string[]> = {
  'example.com': ['93.184.215.14'],
  'metadata-alias.test': ['169.254.169.254'],
  'v6meta.test': ['fd00:ec2::254'],
  'mapped.test': ['::ffff:169.254.169.254'],
  'lan.test': ['192.168.1.20'],
  'mixed.test': ['93.184.215.14', '10.0.0.5'],
  localhost: ['127.0.0.1', '::1'],
};

interface Case {
  url: string;
  mode?: PrivateNetwork;
  typed?: string[];
  /** true: allowed; a RegExp: refused with policy_blocked and a reason matching it; 'not_found': did not resolve. */
  expect: true | RegExp | 'not_found';
}

const META = /cloud-metadata/;
const SCHEME = /only http and https/;
const DENY = /browser\.privateNetwork is "deny"/;
const TYPED = /"typed-only".*only when the user typed it/;

const CASES: Case[] = [
  // Cloud metadata, in every spelling, refused whatever the setting says.
  { url: 'http://169.254.169.254/', expect: META },
  { url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/', expect: META },
  { url: 'https://169.254.169.254:8443/', expect: META },
  { url: 'http://169.254.0.1/', expect: META },
  { url: 'http://169.254.255.255/', expect: META },
  { url: 'http://2852039166/', expect: META },
  { url: 'http://0251.0376.0251.0376/', expect: META },
  { url: 'http://0xa9fea9fe/', expect: META },
  { url: 'http://0xA9.0xFE.0xA9.0xFE/', expect: META },
  { url: 'http://0251.254.169.254/', expect: META },
  { url: 'http://169.254.43518/', expect: META },
  { url: 'http://169.16689662/', expect: META },
  { url: 'http://[::ffff:169.254.169.254]/', expect: META },
  { url: 'http://[::ffff:a9fe:a9fe]/', expect: META },
  { url: 'http://[::169.254.169.254]/', expect: META },
  { url: 'http://[64:ff9b::a9fe:a9fe]/', expect: META },
  { url: 'http://[2002:a9fe:a9fe::1]/', expect: META },
  { url: 'http://169.254.169.254./', expect: META },
  { url: 'http://x@169.254.169.254/', expect: META },
  { url: 'http://user:pass@169.254.169.254:80/', expect: META },
  { url: 'http://example.com@169.254.169.254/', expect: META },
  { url: 'HTTP://169.254.169.254/', expect: META },
  { url: 'http://metadata.google.internal/computeMetadata/v1/', expect: META },
  { url: 'http://METADATA.GOOGLE.INTERNAL/', expect: META },
  { url: 'http://metadata.google.internal./', expect: META },
  { url: 'http://[fd00:ec2::254]/latest/meta-data/', expect: META },
  { url: 'http://[FD00:EC2:0:0:0:0:0:254]/', expect: META },
  { url: 'http://[fe80::1]/', expect: META },
  { url: 'http://[FE80::a9fe:a9fe]/', expect: META },
  { url: 'http://[febf:ffff::1]/', expect: META },
  { url: 'http://100.100.100.200/latest/meta-data/', expect: META },
  { url: 'http://metadata-alias.test/', expect: /metadata-alias\.test resolves to 169\.254\.169\.254.*cloud-metadata/ },
  { url: 'http://v6meta.test/', expect: /v6meta\.test resolves to fd00:ec2::254.*cloud-metadata/ },
  { url: 'http://mapped.test/', expect: /mapped\.test resolves to .*cloud-metadata/ },
  { url: 'http://169.254.169.254/', mode: 'typed-only', typed: ['open http://169.254.169.254/ please'], expect: META },
  { url: 'http://169.254.169.254/', mode: 'deny', expect: META },

  // Only http and https.
  { url: 'file:///etc/passwd', expect: SCHEME },
  { url: 'javascript:alert(1)', expect: SCHEME },
  { url: 'data:text/html,<h1>hi</h1>', expect: SCHEME },
  { url: 'chrome://settings', expect: SCHEME },
  { url: 'ftp://example.com/file', expect: SCHEME },
  { url: 'view-source:http://example.com/', expect: SCHEME },
  { url: 'ws://example.com/socket', expect: SCHEME },
  { url: 'example.com', expect: /not a valid url/ },

  // Loopback and LAN: allowed by default (IDE and CLI sessions).
  { url: 'http://127.0.0.1:5173/', expect: true },
  { url: 'http://localhost:5173/', expect: true },
  { url: 'http://[::1]:3000/', expect: true },
  { url: 'http://192.168.0.10/', expect: true },
  { url: 'http://10.1.2.3:8080/', expect: true },
  { url: 'http://lan.test/', expect: true },
  { url: 'https://example.com/', expect: true },

  // "deny": loopback and LAN refused in any spelling, public still open.
  { url: 'http://127.0.0.1:5173/', mode: 'deny', expect: DENY },
  { url: 'http://localhost/', mode: 'deny', expect: DENY },
  { url: 'http://127.1/', mode: 'deny', expect: DENY },
  { url: 'http://0.0.0.0:8000/', mode: 'deny', expect: DENY },
  { url: 'http://[::]/', mode: 'deny', expect: DENY },
  { url: 'http://192.168.0.10/', mode: 'deny', expect: DENY },
  { url: 'http://172.16.5.4/', mode: 'deny', expect: DENY },
  { url: 'http://[fc00::1]/', mode: 'deny', expect: DENY },
  { url: 'http://[::ffff:127.0.0.1]/', mode: 'deny', expect: DENY },
  { url: 'http://lan.test/', mode: 'deny', expect: /lan\.test resolves to 192\.168\.1\.20.*"deny"/ },
  { url: 'http://mixed.test/', mode: 'deny', expect: /resolves to 10\.0\.0\.5/ },
  { url: 'http://dev.localhost:3000/', mode: 'deny', expect: DENY },
  { url: 'https://example.com/', mode: 'deny', expect: true },

  // "typed-only": only the exact host[:port] the user typed.
  { url: 'http://localhost:5173/app', mode: 'typed-only', typed: ['run the app on localhost:5173 and check it'], expect: true },
  { url: 'http://localhost:5174/', mode: 'typed-only', typed: ['localhost:5173'], expect: TYPED },
  { url: 'http://127.0.0.1:5173/', mode: 'typed-only', typed: ['localhost:5173'], expect: TYPED },
  { url: 'http://localhost:51730/', mode: 'typed-only', typed: ['localhost:5173'], expect: TYPED },
  { url: 'http://192.168.0.10/', mode: 'typed-only', typed: ['the printer is at 192.168.0.10.'], expect: true },
  { url: 'http://192.168.0.10:8080/', mode: 'typed-only', typed: ['192.168.0.10'], expect: TYPED },
  { url: 'http://192.168.0.10/', mode: 'typed-only', typed: ['192.168.0.100'], expect: TYPED },
  { url: 'http://192.168.0.10/', mode: 'typed-only', typed: ['10.192.168.0.10'], expect: TYPED },
  { url: 'http://localhost:3000/', mode: 'typed-only', typed: ['see http://localhost:3000/x'], expect: true },
  { url: 'http://localhost:3000/', mode: 'typed-only', typed: [], expect: /Ask the user to type the address/ },
  { url: 'http://localhost/', mode: 'typed-only', typed: ['localhost'], expect: true },
  { url: 'http://localhost:8080/', mode: 'typed-only', typed: ['localhost'], expect: TYPED },
  { url: 'http://localhost/', mode: 'typed-only', typed: ['my.localhost.example.com'], expect: TYPED },
  { url: 'http://lan.test:8080/', mode: 'typed-only', typed: ['LAN.TEST:8080'], expect: true },
  { url: 'http://[::1]:3000/', mode: 'typed-only', typed: ['[::1]:3000'], expect: true },
  { url: 'https://example.com/', mode: 'typed-only', expect: true },

  // Addresses no page lives at, and names that do not resolve.
  { url: 'http://224.0.0.1/', expect: /multicast/ },
  { url: 'http://255.255.255.255/', expect: /reserved/ },
  { url: 'http://nx.test/', expect: 'not_found' },
];

describe('browser URL policy', () => {
  it(`has a table of ${CASES.length} cases`, () => assert.ok(CASES.length >= 40));

  for (const c of CASES) {
    const label = `${c.url} [${c.mode ?? 'allow'}${c.typed ? ` typed=${JSON.stringify(c.typed)}` : ''}] -> ${c.expect === true ? 'allowed' : c.expect === 'not_found' ? 'not_found' : 'refused'}`;
    it(label, async () => {
      const v = await checkUrl(c.url, { privateNetwork: c.mode ?? 'allow', typedTexts: c.typed ?? [] }, fakeResolver(DNS));
      if (c.expect === true) {
        assert.equal(v.allowed, true, v.allowed ? '' : v.reason);
      } else if (c.expect === 'not_found') {
        assert.equal(v.allowed, false);
        assert.equal(!v.allowed && v.code, 'not_found');
      } else {
        assert.equal(v.allowed, false, `expected a refusal of ${c.url}`);
        assert.equal(!v.allowed && v.code, 'policy_blocked');
        assert.match(!v.allowed ? v.reason : '', c.expect);
      }
    });
  }

  it('decides metadata names and IP literals without asking DNS', async () => {
    const r = fakeResolver(DNS);
    for (const url of ['http://metadata.google.internal/', 'http://0xa9fea9fe/', 'http://[::ffff:a9fe:a9fe]/', 'http://127.0.0.1/']) {
      await checkUrl(url, { privateNetwork: 'allow', typedTexts: [] }, r);
    }
    assert.deepEqual(r.asked, []);
    assert.equal(checkUrlWithoutDns('http://2852039166/', { privateNetwork: 'allow', typedTexts: [] })?.allowed, false);
    assert.equal(checkUrlWithoutDns('https://example.com/', { privateNetwork: 'allow', typedTexts: [] }), undefined, 'a name needs DNS');
  });

  it('hands back the addresses it checked, which are the ones the proxy connects to', async () => {
    const v = await checkUrl('http://mixed.test/', { privateNetwork: 'allow', typedTexts: [] }, fakeResolver(DNS));
    assert.deepEqual(v, { allowed: true, addresses: ['93.184.215.14', '10.0.0.5'] });
    const local = await checkUrl('http://localhost:5173/', { privateNetwork: 'allow', typedTexts: [] }, fakeResolver({ localhost: ['10.9.9.9'] }));
    assert.deepEqual(local, { allowed: true, addresses: ['127.0.0.1', '::1'] }, 'localhost is this machine whatever a resolver says');
  });
});
