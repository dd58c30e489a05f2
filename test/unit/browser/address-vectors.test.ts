import assert from 'node:assert/strict';
import { checkTarget, checkUrl, hostTarget, type PrivateNetwork, type Verdict } from '../../../extension/core/browser/url-policy';
import { scriptedResolver } from './helpers';

type Kind = 'metadata' | 'loopback' | 'private' | 'reserved' | 'public';

/** An address as a proxy authority or resolver answer gives it, and what the policy must judge it to be. */
const VECTORS: [string, Kind][] = [
  // IPv4 in decimal, octal, hex and short forms.
  ['169.254.169.254', 'metadata'],
  ['2852039166', 'metadata'],
  ['0251.0376.0251.0376', 'metadata'],
  ['0xa9fea9fe', 'metadata'],
  ['0XA9.0XFE.0XA9.0XFE', 'metadata'],
  ['0251.254.169.254', 'metadata'],
  ['169.254.43518', 'metadata'],
  ['169.16689662', 'metadata'],
  ['0xa9.0376.43518', 'metadata'],
  ['100.100.100.200', 'metadata'],
  ['127.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['017700000001', 'loopback'],
  ['2130706433', 'loopback'],
  ['0', 'loopback'],
  ['10.1', 'private'],
  ['012.0.0.1', 'private'],
  ['0xa.0.0.1', 'private'],
  ['3232235777', 'private'],
  ['172.16.0.1', 'private'],
  ['100.64.0.1', 'private'],
  ['198.18.0.1', 'private'],
  ['224.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.0.0.1', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['8.8.8.8', 'public'],
  ['134744072', 'public'],
  ['0x08.0x08.0x08.0x08', 'public'],
  ['172.32.0.1', 'public'],
  // IPv4-mapped, SIIT and compatible IPv6.
  ['::ffff:169.254.169.254', 'metadata'],
  ['::ffff:a9fe:a9fe', 'metadata'],
  ['::ffff:0:a9fe:a9fe', 'metadata'],
  ['::a9fe:a9fe', 'metadata'],
  ['::ffff:127.0.0.1', 'loopback'],
  ['::7f00:1', 'loopback'],
  ['::ffff:10.0.0.1', 'private'],
  ['::ffff:8.8.8.8', 'public'],
  ['::2', 'reserved'],
  // 6to4 (2002::/16) carries an IPv4 address in bits 16-47.
  ['2002:a9fe:a9fe::1', 'metadata'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:808:808::1', 'public'],
  // Teredo (2001::/32) carries its client's address, inverted, in the last 32 bits.
  ['2001:0:4136:e378:8000:63bf:5601:5601', 'metadata'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback'],
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', 'public'],
  // NAT64, well-known and local-use prefixes.
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::169.254.1.1', 'metadata'],
  ['64:ff9b:1:a9fe:a9:fe00::', 'metadata'],
  ['64:ff9b::808:808', 'public'],
  // Cloud IPv6 metadata endpoints and unique-local wrappings of 169.254.0.0/16.
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2::23', 'metadata'],
  ['fd00:c1::a9fe:a9fe', 'metadata'],
  ['fd20:ce::254', 'metadata'],
  ['fd12:3456::a9fe:a9fe', 'metadata'],
  // Link-local, with and without zone ids.
  ['fe80::1', 'metadata'],
  ['fe80::1%eth0', 'metadata'],
  ['[fe80::a9fe:a9fe%25en0]', 'metadata'],
  ['fe80::1%eth-0.1', 'metadata'],
  ['febf:ffff::1', 'metadata'],
  // Other IPv6 ranges.
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['::', 'loopback'],
  ['fc00::1', 'private'],
  ['fec0::1', 'private'],
  ['2001:2::1', 'private'],
  ['ff02::1', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['100::1', 'reserved'],
  ['2606:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
];

const noDns = scriptedResolver({});

/** What the verdict says the address is, read from the refusal (or allowance) in the two modes. */
async function judged(check: (mode: PrivateNetwork) => Promise<Verdict>): Promise<Kind> {
  const allow = await check('allow');
  const deny = await check('deny');
  if (!allow.allowed) {
    if (/cloud-metadata addresses are never opened/.test(allow.reason)) return 'metadata';
    assert.match(allow.reason, /not an address a web page lives at/);
    return 'reserved';
  }
  if (deny.allowed) return 'public';
  const label = deny.reason.split(', and browser.privateNetwork')[0];
  return /this machine|loopback/.test(label) ? 'loopback' : 'private';
}

describe('browser URL policy: address vectors read by ipaddr.js (issue 21)', () => {
  it(`issue 21: ${VECTORS.length} address spellings, as a proxy authority and a resolver answer, are judged as what they reach`, async () => {
    const wrong: string[] = [];
    for (const [address, kind] of VECTORS) {
      const literal = await judged((mode) => checkTarget(hostTarget(address, 80, 'http'), { privateNetwork: mode, typedTexts: [] }, noDns));
      const answered = await judged((mode) => checkTarget(hostTarget('name.test', 80, 'http'), { privateNetwork: mode, typedTexts: [] }, scriptedResolver({ 'name.test': [[address.replace(/^\[|\]$/g, '')]] })));
      if (literal !== kind || answered !== kind) wrong.push(`${address}: expected ${kind}, literal ${literal}, resolved ${answered}`);
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual(noDns.asked, [], 'literals are judged without DNS');
  });

  it('issue 21: the same vectors as urls are refused or allowed alike; zone ids are not valid in a url', async () => {
    const wrong: string[] = [];
    for (const [address, kind] of VECTORS) {
      const host = address.includes(':') && !address.startsWith('[') ? `[${address}]` : address;
      const url = `http://${host}/`;
      if (address.includes('%')) {
        const v = await checkUrl(url, { privateNetwork: 'allow', typedTexts: [] }, noDns);
        if (v.allowed || !/not a valid url/.test(v.reason)) wrong.push(`${url}: expected an invalid url`);
        continue;
      }
      const got = await judged((mode) => checkUrl(url, { privateNetwork: mode, typedTexts: [] }, noDns));
      if (got !== kind) wrong.push(`${url}: expected ${kind}, got ${got}`);
    }
    assert.deepEqual(wrong, []);
  });

  it('issue 21: the reasons name the range, and the IPv4 address an IPv6 address carries', async () => {
    const reason = async (url: string) => {
      const v = await checkUrl(url, { privateNetwork: 'deny', typedTexts: [] }, noDns);
      return v.allowed ? '' : v.reason;
    };
    assert.equal(await reason('http://0xa9fea9fe/'), '169.254.169.254 is link-local 169.254.0.0/16, where cloud-metadata services live; cloud-metadata addresses are never opened');
    assert.match(await reason('http://[2001:0:4136:e378:8000:63bf:5601:5601]/'), /^2001:0:4136:e378:8000:63bf:5601:5601 is link-local 169\.254\.0\.0\/16.*, written as the IPv6 address 2001:0:4136:e378:8000:63bf:5601:5601;/);
    assert.match(await reason('http://[2002:c0a8:101::1]/'), /is private \(LAN\) .*192\.168\.0\.0\/16, written as the IPv6 address 2002:c0a8:101::1, and browser\.privateNetwork is "deny"/);
    assert.match(await reason('http://[2001:db8::1]/'), /2001:db8::1 is reserved for protocols or documentation/);
    assert.match(await reason('http://192.0.2.1/'), /192\.0\.2\.1 is reserved for protocols, documentation or future use/);
  });
});
