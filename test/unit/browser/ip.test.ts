import assert from 'node:assert/strict';
import { classifyIp } from '../../../extension/core/browser/address-class';
import { embeddedIPv4, formatIp, parseIp } from '../../../extension/core/browser/ip';

const read = (s: string) => {
  const ip = parseIp(s);
  return ip && formatIp(ip);
};
const v4 = read;
const v6 = read;

describe('browser IP parsing', () => {
  it('reads IPv4 in every spelling browsers and inet_aton accept', () => {
    assert.equal(v4('169.254.169.254'), '169.254.169.254');
    assert.equal(v4('2852039166'), '169.254.169.254');
    assert.equal(v4('0251.0376.0251.0376'), '169.254.169.254');
    assert.equal(v4('0xa9fea9fe'), '169.254.169.254');
    assert.equal(v4('0XA9.0XFE.0XA9.0XFE'), '169.254.169.254');
    assert.equal(v4('169.254.43518'), '169.254.169.254');
    assert.equal(v4('169.16689662'), '169.254.169.254');
    assert.equal(v4('127.1'), '127.0.0.1');
    assert.equal(v4('0'), '0.0.0.0');
  });

  it('issue 21 (ipaddr.js): a trailing dot and a bare "0x" are left to the URL parser, which reads them before the policy does', () => {
    assert.equal(parseIp('169.254.169.254.'), null);
    assert.equal(parseIp('0x'), null);
    assert.equal(new URL('http://169.254.169.254./').hostname, '169.254.169.254');
    assert.equal(new URL('http://0x/').hostname, '0.0.0.0');
  });

  it('refuses what is not an IPv4 address', () => {
    for (const s of ['256.1.1.1', '1.2.3.4.5', '4294967296', '08.1.1.1', '0xg1', 'example.com', '1..2.3', '', '1.2.3.256']) {
      assert.equal(parseIp(s), null, s);
    }
  });

  it('reads IPv6 with compression, brackets, zones and a dotted tail, and writes it compressed', () => {
    assert.equal(v6('[::1]'), '::1');
    assert.equal(v6('::'), '::');
    assert.equal(v6('FD00:EC2:0:0:0:0:0:254'), 'fd00:ec2::254');
    assert.equal(v6('fe80::1%eth0'), 'fe80::1');
    assert.equal(v6('::ffff:169.254.169.254'), '::ffff:a9fe:a9fe');
    assert.equal(v6('1:2:3:4:5:6:7:8'), '1:2:3:4:5:6:7:8');
    for (const bad of ['1:2:3:4:5:6:7:8:9', '1::2::3', '::ffff:1.2.3.256', 'g::1', '12345::1', '1:2:3:4:5:6:7']) assert.equal(parseIp(bad), null, bad);
  });

  it('finds the IPv4 address inside mapped, compatible, NAT64 and 6to4 IPv6 addresses', () => {
    for (const s of ['::ffff:a9fe:a9fe', '::ffff:0:a9fe:a9fe', '::a9fe:a9fe', '64:ff9b::a9fe:a9fe', '2002:a9fe:a9fe::1']) {
      const inner = embeddedIPv4(parseIp(s)!);
      assert.equal(inner && formatIp(inner), '169.254.169.254', s);
    }
    assert.equal(embeddedIPv4(parseIp('::1')!), null);
    assert.equal(embeddedIPv4(parseIp('2001:db8::1')!), null);
  });

  it('classifies what an address reaches', () => {
    const kind = (s: string) => classifyIp(parseIp(s)!).kind;
    assert.equal(kind('169.254.1.1'), 'metadata');
    assert.equal(kind('fe80::abcd'), 'metadata');
    assert.equal(kind('fd00:ec2::254'), 'metadata');
    assert.equal(kind('127.0.0.53'), 'loopback');
    assert.equal(kind('::1'), 'loopback');
    assert.equal(kind('10.0.0.1'), 'private');
    assert.equal(kind('172.31.255.255'), 'private');
    assert.equal(kind('172.32.0.1'), 'public');
    assert.equal(kind('fd12::1'), 'private');
    assert.equal(kind('100.64.0.1'), 'private');
    assert.equal(kind('8.8.8.8'), 'public');
    assert.equal(kind('2606:4700::1111'), 'public');
    assert.equal(kind('ff02::1'), 'reserved');
    assert.equal(kind('::ffff:10.0.0.1'), 'private');
  });
});
