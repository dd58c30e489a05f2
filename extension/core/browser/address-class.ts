/**
 * What an IP address reaches, for the URL policy: a cloud-metadata endpoint (refused always),
 * this machine, the local network, an address no page should use, or the internet.
 */
import { embeddedIPv4, formatIp, nat64Candidates, type Ip } from './ip';

export type AddressKind = 'metadata' | 'loopback' | 'private' | 'reserved' | 'public';

export interface AddressClass {
  kind: AddressKind;
  /** Human words for the range ("link-local 169.254.0.0/16, where cloud-metadata services live"). */
  label: string;
}

interface Range {
  base: number[];
  bits: number;
  kind: AddressKind;
  label: string;
}

const v4 = (cidr: string, kind: AddressKind, label: string): Range => {
  const [addr, bits] = cidr.split('/');
  return { base: addr.split('.').map(Number), bits: Number(bits), kind, label };
};

const v6 = (prefix: number[], bits: number, kind: AddressKind, label: string): Range => ({
  base: [...prefix, ...new Array<number>(16 - prefix.length).fill(0)],
  bits,
  kind,
  label,
});

/** Checked in order: the first range that contains the address decides. */
const V4_RANGES: Range[] = [
  v4('169.254.0.0/16', 'metadata', 'link-local 169.254.0.0/16, where cloud-metadata services live'),
  v4('100.100.100.200/32', 'metadata', 'the Alibaba Cloud metadata address'),
  v4('127.0.0.0/8', 'loopback', 'loopback 127.0.0.0/8'),
  v4('0.0.0.0/8', 'loopback', '"this host" 0.0.0.0/8, which reaches this machine'),
  v4('10.0.0.0/8', 'private', 'private (LAN) 10.0.0.0/8'),
  v4('172.16.0.0/12', 'private', 'private (LAN) 172.16.0.0/12'),
  v4('192.168.0.0/16', 'private', 'private (LAN) 192.168.0.0/16'),
  v4('100.64.0.0/10', 'private', 'carrier-grade NAT 100.64.0.0/10'),
  v4('198.18.0.0/15', 'private', 'benchmarking 198.18.0.0/15'),
  v4('192.0.0.0/24', 'reserved', 'IETF protocol assignments 192.0.0.0/24'),
  v4('224.0.0.0/4', 'reserved', 'multicast 224.0.0.0/4'),
  v4('240.0.0.0/4', 'reserved', 'reserved 240.0.0.0/4 (and broadcast)'),
];

const V6_RANGES: Range[] = [
  v6([0xfd, 0x00, 0x0e, 0xc2], 32, 'metadata', 'the AWS IPv6 metadata range fd00:ec2::/32 (instance metadata ::254, EKS Pod Identity ::23)'),
  v6([0xfd, 0x00, 0x00, 0xc1, 0, 0, 0, 0, 0, 0, 0, 0, 0xa9, 0xfe, 0xa9, 0xfe], 128, 'metadata', 'the Oracle Cloud IPv6 metadata address fd00:c1::a9fe:a9fe'),
  v6([0xfd, 0x20, 0x00, 0xce, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54], 128, 'metadata', 'the Google Cloud IPv6 metadata address fd20:ce::254'),
  v6([0xfe, 0x80], 10, 'metadata', 'link-local fe80::/10, where cloud-metadata services live'),
  v6([], 128, 'loopback', 'the unspecified address ::, which reaches this machine'),
  v6([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128, 'loopback', 'loopback ::1'),
  v6([], 96, 'reserved', 'the reserved range ::/96'),
  v6([0xfc], 7, 'private', 'unique-local (LAN) fc00::/7'),
  v6([0xfe, 0xc0], 10, 'private', 'site-local (LAN) fec0::/10'),
  v6([0xff], 8, 'reserved', 'multicast ff00::/8'),
];

function contains(r: Range, bytes: number[]): boolean {
  let bits = r.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (r.base[i] & mask)) return false;
  }
  return true;
}

/** A metadata IPv4 address carried in the low 32 bits of a unique-local address, or anywhere a NAT64 prefix can carry it. */
function carriedMetadata(ip: Ip): AddressClass | undefined {
  if (ip.family !== 6) return undefined;
  const ula = (ip.bytes[0] & 0xfe) === 0xfc;
  const candidates = ula ? [{ family: 4 as const, bytes: ip.bytes.slice(12) }] : nat64Candidates(ip);
  for (const c of candidates) {
    const k = classifyIp(c);
    if (k.kind === 'metadata') return { kind: 'metadata', label: `${k.label}, carried in the IPv6 address ${formatIp(ip)}` };
  }
  return undefined;
}

export function classifyIp(ip: Ip): AddressClass {
  const named = ip.family === 6 ? V6_RANGES.find((r) => r.kind === 'metadata' && contains(r, ip.bytes)) : undefined;
  if (named) return { kind: named.kind, label: named.label };
  const carried = carriedMetadata(ip);
  if (carried) return carried;
  const inner = embeddedIPv4(ip);
  if (inner) {
    const c = classifyIp(inner);
    return { kind: c.kind, label: `${c.label}, written as the IPv6 address ${formatIp(ip)}` };
  }
  const ranges = ip.family === 4 ? V4_RANGES : V6_RANGES;
  for (const r of ranges) if (contains(r, ip.bytes)) return { kind: r.kind, label: r.label };
  return { kind: 'public', label: 'a public address' };
}
