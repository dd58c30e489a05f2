/**
 * IP addresses for the URL policy, read by ipaddr.js: IPv4 in the inet_aton spellings (decimal,
 * octal, hex, 1 to 4 parts), IPv6 compressed or with a dotted IPv4 tail. Brackets and a `%zone`
 * are dropped first. Pure: no DNS, no sockets.
 */
import ipaddr from 'ipaddr.js';

export type Ip = ipaddr.IPv4 | ipaddr.IPv6;

/** ::/96 minus :: and ::1: the deprecated IPv4-compatible form ::a.b.c.d. */
export const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');

/** An IP literal as a URL host or a resolver gives it, or null for a name. */
export function parseIp(host: string): Ip | null {
  if (host.startsWith('[') || host.includes(':')) {
    const inner = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
    const bare = inner.replace(/%.*$/, '');
    return ipaddr.IPv6.isValid(bare) ? ipaddr.IPv6.parse(bare) : null;
  }
  return ipaddr.IPv4.isValid(host) ? ipaddr.IPv4.parse(host) : null;
}

/** Dotted decimal, or IPv6 compressed as RFC 5952 writes it. */
export function formatIp(ip: Ip): string {
  return ip.toString();
}

const v4At = (bytes: number[], at: number[]) => new ipaddr.IPv4(at.map((i) => bytes[i]));

/**
 * Every IPv4 address a NAT64 address (64:ff9b::/96, or local-use 64:ff9b:1::/48 of RFC 8215) may
 * carry: the operator picks the prefix length, so each RFC 6052 layout (/48, /56, /64, /96) is a candidate.
 */
export function nat64Candidates(ip: Ip): ipaddr.IPv4[] {
  if (ip.kind() !== 'ipv6' || ip.range() !== 'rfc6052') return [];
  const b = ip.toByteArray();
  return [v4At(b, [12, 13, 14, 15]), v4At(b, [6, 7, 9, 10]), v4At(b, [7, 9, 10, 11]), v4At(b, [9, 10, 11, 12])];
}

/**
 * The IPv4 address an IPv6 address carries and reaches: IPv4-mapped, SIIT (::ffff:0:a.b.c.d),
 * compatible (::a.b.c.d), NAT64 (the /96 layout), 6to4 (2002::/16) or a Teredo client (2001::/32).
 */
export function embeddedIPv4(ip: Ip): ipaddr.IPv4 | null {
  if (ip.kind() !== 'ipv6') return null;
  const b = ip.toByteArray();
  switch (ip.range()) {
    case 'ipv4Mapped':
    case 'rfc6145':
    case 'rfc6052':
      return v4At(b, [12, 13, 14, 15]);
    case '6to4':
      return v4At(b, [2, 3, 4, 5]);
    case 'teredo':
      return new ipaddr.IPv4(b.slice(12).map((x) => x ^ 0xff)); // the client's address, stored inverted
    default:
      return ip.match(IPV4_COMPATIBLE) && b.slice(12, 15).some((x) => x !== 0) ? v4At(b, [12, 13, 14, 15]) : null;
  }
}
