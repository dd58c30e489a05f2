/**
 * What an IP address reaches, for the URL policy: a cloud-metadata endpoint (refused always),
 * this machine, the local network, an address no page should use, or the internet. The ranges
 * are ipaddr.js's (IANA's special-purpose registries); the cloud-metadata endpoints it has no
 * name for are listed here.
 */
import ipaddr from 'ipaddr.js';
import { embeddedIPv4, formatIp, IPV4_COMPATIBLE, nat64Candidates, type Ip } from './ip';

export type AddressKind = 'metadata' | 'loopback' | 'private' | 'reserved' | 'public';

export interface AddressClass {
  kind: AddressKind;
  /** Human words for the range ("link-local 169.254.0.0/16, where cloud-metadata services live"). */
  label: string;
}

const cls = (kind: AddressKind, label: string): AddressClass => ({ kind, label });
const PUBLIC = cls('public', 'a public address');

const listed = (cidr: string, kind: AddressKind, label: string) => ({ range: ipaddr.parseCIDR(cidr), class: cls(kind, label) });

/** Checked first, in order: addresses and blocks ipaddr.js files elsewhere or has no name for. */
const LISTED = [
  listed('100.100.100.200/32', 'metadata', 'the Alibaba Cloud metadata address'),
  listed('168.63.129.16/32', 'metadata', 'the Azure platform address 168.63.129.16 (WireServer, reachable from every Azure VM)'),
  listed('198.18.0.0/15', 'private', 'benchmarking 198.18.0.0/15'),
  listed('fd00:ec2::/32', 'metadata', 'the AWS IPv6 metadata range fd00:ec2::/32 (instance metadata ::254, EKS Pod Identity ::23)'),
  listed('fd00:c1::a9fe:a9fe/128', 'metadata', 'the Oracle Cloud IPv6 metadata address fd00:c1::a9fe:a9fe'),
  listed('fd20:ce::254/128', 'metadata', 'the Google Cloud IPv6 metadata address fd20:ce::254'),
];

/** ipaddr.js's range names; a name missing here (a newer release's) counts as reserved. */
const V4: Record<string, AddressClass> = {
  unicast: PUBLIC,
  as112: PUBLIC,
  amt: PUBLIC,
  linkLocal: cls('metadata', 'link-local 169.254.0.0/16, where cloud-metadata services live'),
  loopback: cls('loopback', 'loopback 127.0.0.0/8'),
  unspecified: cls('loopback', '"this host" 0.0.0.0/8, which reaches this machine'),
  private: cls('private', 'private (LAN) 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16'),
  carrierGradeNat: cls('private', 'carrier-grade NAT 100.64.0.0/10'),
  multicast: cls('reserved', 'multicast 224.0.0.0/4'),
  broadcast: cls('reserved', 'the reserved broadcast address 255.255.255.255'),
  reserved: cls('reserved', 'reserved for protocols, documentation or future use (192.0.0.0/24, 192.0.2.0/24, 198.51.100.0/24, 203.0.113.0/24, 240.0.0.0/4, ...)'),
};

const V6: Record<string, AddressClass> = {
  unicast: PUBLIC,
  as112v6: PUBLIC,
  amt: PUBLIC,
  linkLocal: cls('metadata', 'link-local fe80::/10, where cloud-metadata services live'),
  unspecified: cls('loopback', 'the unspecified address ::, which reaches this machine'),
  loopback: cls('loopback', 'loopback ::1'),
  uniqueLocal: cls('private', 'unique-local (LAN) fc00::/7'),
  deprecatedSiteLocal: cls('private', 'site-local (LAN) fec0::/10'),
  benchmarking: cls('private', 'benchmarking 2001:2::/48'),
  multicast: cls('reserved', 'multicast ff00::/8'),
  reserved: cls('reserved', 'reserved for protocols or documentation (2001::/23, 2001:db8::/32, 3fff::/20)'),
  discard: cls('reserved', 'the discard range 100::/64'),
  deprecatedOrchid: cls('reserved', 'ORCHID identifiers 2001:10::/28, not addresses'),
  orchid2: cls('reserved', 'ORCHIDv2 identifiers 2001:20::/28, not addresses'),
  droneRemoteIdProtocolEntityTags: cls('reserved', 'drone remote ID tags 2001:30::/28, not addresses'),
  segmentRouting: cls('reserved', 'segment routing identifiers 5f00::/16, not addresses'),
};

/** A metadata IPv4 address carried in the low 32 bits of a unique-local or site-local address, or anywhere a NAT64 prefix can carry it. */
function carriedMetadata(ip: Ip): AddressClass | undefined {
  if (ip.kind() !== 'ipv6') return undefined;
  const range: string = ip.range();
  const wraps = range === 'uniqueLocal' || range === 'deprecatedSiteLocal';
  const candidates = wraps ? [new ipaddr.IPv4(ip.toByteArray().slice(12))] : nat64Candidates(ip);
  for (const c of candidates) {
    const k = classifyIp(c);
    if (k.kind === 'metadata') return cls('metadata', `${k.label}, carried in the IPv6 address ${formatIp(ip)}`);
  }
  return undefined;
}

export function classifyIp(ip: Ip): AddressClass {
  const hit = LISTED.find((l) => l.range[0].kind() === ip.kind() && ip.match(l.range));
  if (hit) return hit.class;
  const carried = carriedMetadata(ip);
  if (carried) return carried;
  const inner = embeddedIPv4(ip);
  if (inner) {
    const c = classifyIp(inner);
    return cls(c.kind, `${c.label}, written as the IPv6 address ${formatIp(ip)}`);
  }
  const name = ip.range();
  if (ip.kind() === 'ipv6' && name === 'unicast' && ip.match(IPV4_COMPATIBLE)) return cls('reserved', 'the reserved range ::/96');
  return (ip.kind() === 'ipv4' ? V4 : V6)[name] ?? cls('reserved', `the special-purpose range "${name}"`);
}
