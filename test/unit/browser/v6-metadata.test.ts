import assert from 'node:assert/strict';
import * as http from 'node:http';
import * as net from 'node:net';
import { classifyIp } from '../../../extension/core/browser/address-class';
import { parseIp } from '../../../extension/core/browser/ip';
import { PinningProxy } from '../../../extension/core/browser/pinning-proxy';
import { checkTarget, checkUrl, type PrivateNetwork } from '../../../extension/core/browser/url-policy';

const noDns = async (host: string): Promise<string[]> => {
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

/** The IPv6 metadata endpoints and NAT64/ULA spellings of the report's rows B9 and B10. */
const METADATA_V6 = [
  'fd00:ec2::254', // AWS instance metadata
  'fd00:ec2::23', // AWS EKS Pod Identity agent
  'fd00:ec2:0:1::7', // anywhere in fd00:ec2::/32
  'fd00:c1::a9fe:a9fe', // Oracle Cloud
  'fd20:ce::254', // Google Cloud IPv6-only VMs
  '64:ff9b::a9fe:a9fe', // well-known NAT64 prefix carrying 169.254.169.254
  '64:ff9b::169.254.1.1',
  '64:ff9b:1::a9fe:a9fe', // local-use NAT64 (RFC 8215), /96 layout
  '64:ff9b:1:a9fe:a9:fe00::', // local-use NAT64, /48 layout (RFC 6052)
  '64:ff9b:1::6464:64c8', // 100.100.100.200 (Alibaba) through NAT64
  'fd12:3456::a9fe:a9fe', // any unique-local address carrying 169.254.x.x in its low 32 bits
  'fc00::6464:64c8',
];

describe('IPv6 cloud-metadata addresses (M3)', () => {
  it('N16: the Azure platform address 168.63.129.16 and site-local fec0::/10 addresses carrying 169.254.x.x are metadata, refused even under privateNetwork allow', () => {
    assert.equal(classifyIp(parseIp('168.63.129.16')!).kind, 'metadata');
    assert.match(classifyIp(parseIp('168.63.129.16')!).label, /Azure/);
    assert.equal(classifyIp(parseIp('fec0::a9fe:a9fe')!).kind, 'metadata');
    assert.match(classifyIp(parseIp('fec0::a9fe:a9fe')!).label, /carried in the IPv6 address/);
    assert.equal(classifyIp(parseIp('fec0::1')!).kind, 'private', 'other site-local addresses stay LAN');
    assert.equal(classifyIp(parseIp('168.63.129.17')!).kind, 'public', 'its neighbour stays public');
  });

  it('M3: the IPv6 metadata endpoints of AWS, Oracle and Google, and NAT64/ULA wrappings of 169.254.0.0/16, are classed as metadata', () => {
    for (const a of METADATA_V6) assert.equal(classifyIp(parseIp(a)!).kind, 'metadata', a);
    assert.match(classifyIp(parseIp('fd00:c1::a9fe:a9fe')!).label, /Oracle Cloud/);
    assert.match(classifyIp(parseIp('64:ff9b:1::a9fe:a9fe')!).label, /169\.254\.0\.0\/16.*carried in the IPv6 address 64:ff9b:1::a9fe:a9fe/);
    // Neighbours stay what they were.
    assert.equal(classifyIp(parseIp('fd12::1')!).kind, 'private');
    assert.equal(classifyIp(parseIp('fd00:ec3::254')!).kind, 'private');
    assert.equal(classifyIp(parseIp('64:ff9b::808:808')!).kind, 'public');
    assert.equal(classifyIp(parseIp('64:ff9b:1::a00:1')!).kind, 'private', 'local-use NAT64 to 10.0.0.1 is LAN');
  });

  it('M3: the URL policy refuses them in every privateNetwork mode, as literals and behind names', async () => {
    for (const mode of ['allow', 'typed-only', 'deny'] as PrivateNetwork[]) {
      for (const a of METADATA_V6) {
        const url = `http://[${a}]/latest/meta-data/`;
        const v = await checkUrl(url, { privateNetwork: mode, typedTexts: [url] }, noDns);
        assert.equal(v.allowed, false, `${mode} ${url}`);
        assert.match(!v.allowed ? v.reason : '', /cloud-metadata addresses are never opened/);
      }
    }
    const named = await checkUrl('http://oci.test/opc/v1/instance/', { privateNetwork: 'allow', typedTexts: [] }, async () => ['fd00:c1::a9fe:a9fe']);
    assert.equal(named.allowed, false);
  });

  it('M3: the pinning proxy refuses CONNECT and plain http to them and never connects', async () => {
    const contacted: string[] = [];
    const blocked: string[] = [];
    const proxy = new PinningProxy({
      decide: (t) => checkTarget(t, { privateNetwork: 'allow', typedTexts: [] }, async () => ['fd20:ce::254']),
      connect: (address, port) => {
        contacted.push(`${address}:${port}`);
        return new net.Socket();
      },
      onBlocked: (b) => blocked.push(`${b.host}:${b.port}`),
    });
    await proxy.start();
    try {
      const targets = ['[fd00:c1::a9fe:a9fe]:80', '[fd20:ce::254]:443', '[fd00:ec2::23]:80', '[64:ff9b:1::a9fe:a9fe]:80', 'gcp-meta.test:443'];
      for (const target of targets) {
        const status = await new Promise<number>((resolve, reject) => {
          const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: target });
          req.on('connect', (res, socket) => (socket.destroy(), resolve(res.statusCode ?? 0)));
          req.on('error', reject);
          req.end();
        });
        assert.equal(status, 403, target);
      }
      const plain = await new Promise<number>((resolve, reject) => {
        const req = http.request({ host: '127.0.0.1', port: proxy.port, path: 'http://[fd00:ec2::23]/v1/credentials' }, (res) => (res.resume(), resolve(res.statusCode ?? 0)));
        req.on('error', reject);
        req.end();
      });
      assert.equal(plain, 403);
      assert.deepEqual(contacted, [], 'no metadata address was contacted');
      assert.equal(blocked.length, targets.length + 1);
    } finally {
      await proxy.close();
    }
  });
});
