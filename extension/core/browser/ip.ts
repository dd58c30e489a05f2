/**
 * IP address parsing for the URL policy. IPv4 accepts every spelling a browser or inet_aton
 * accepts (decimal, octal, hex, 1-4 parts, a trailing dot); IPv6 accepts compressed forms,
 * embedded dotted IPv4 and zone ids. Pure: no DNS, no sockets.
 */

export interface Ip {
  family: 4 | 6;
  bytes: number[];
}

function parseV4Part(part: string): number | null {
  if (part === '') return null;
  let digits = part;
  let radix = 10;
  if (/^0x/i.test(part)) {
    digits = part.slice(2);
    radix = 16;
    if (digits === '') return 0;
  } else if (part.length > 1 && part.startsWith('0')) {
    digits = part.slice(1);
    radix = 8;
  }
  const valid = radix === 16 ? /^[0-9a-f]+$/i : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  if (!valid.test(digits)) return null;
  const n = parseInt(digits, radix);
  return Number.isSafeInteger(n) ? n : null;
}

/** IPv4 in any inet_aton/WHATWG spelling: `2852039166`, `0251.0376.0251.0376`, `0xa9fea9fe`, `169.254.43518`, `169.254.169.254.`. */
export function parseIPv4(input: string): Ip | null {
  let parts = input.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts = parts.slice(0, -1);
  if (parts.length < 1 || parts.length > 4) return null;
  const nums: number[] = [];
  for (const p of parts) {
    const n = parseV4Part(p);
    if (n === null) return null;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return null;
  const lastBytes = 4 - nums.length;
  if (last >= 256 ** lastBytes) return null;
  const bytes = [...nums];
  for (let i = lastBytes - 1; i >= 0; i--) bytes.push(Math.floor(last / 256 ** i) % 256);
  return { family: 4, bytes };
}

function hexGroups(s: string): number[] | null {
  if (s === '') return [];
  const out: number[] = [];
  for (const g of s.split(':')) {
    if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
    out.push(parseInt(g, 16));
  }
  return out;
}

/** IPv6, with or without brackets; `::` compression, a trailing dotted IPv4 and a `%zone` are accepted. */
export function parseIPv6(input: string): Ip | null {
  let s = input.startsWith('[') && input.endsWith(']') ? input.slice(1, -1) : input;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  if (!s.includes(':')) return null;
  const lastColon = s.lastIndexOf(':');
  const lastPart = s.slice(lastColon + 1);
  if (lastPart.includes('.')) {
    if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(lastPart)) return null;
    const o = lastPart.split('.').map(Number);
    if (o.some((x) => x > 255)) return null;
    s = `${s.slice(0, lastColon + 1)}${((o[0] << 8) | o[1]).toString(16)}:${((o[2] << 8) | o[3]).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return null;
  let groups: number[];
  if (halves.length === 2) {
    const head = hexGroups(halves[0]);
    const rest = hexGroups(halves[1]);
    if (!head || !rest) return null;
    const fill = 8 - head.length - rest.length;
    if (fill < 1) return null;
    groups = [...head, ...new Array<number>(fill).fill(0), ...rest];
  } else {
    const all = hexGroups(s);
    if (!all) return null;
    groups = all;
  }
  if (groups.length !== 8) return null;
  return { family: 6, bytes: groups.flatMap((g) => [g >> 8, g & 0xff]) };
}

/** An IP literal as a URL host or a resolver gives it, or null for a name. */
export function parseIp(host: string): Ip | null {
  if (host.includes(':') || host.startsWith('[')) return parseIPv6(host);
  return parseIPv4(host);
}

export function formatIp(ip: Ip): string {
  if (ip.family === 4) return ip.bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((ip.bytes[i] << 8) | ip.bytes[i + 1]).toString(16));
  // Compress the longest run of zero groups (length >= 2), as RFC 5952 does.
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** Whether the address is in a NAT64 prefix: well-known 64:ff9b::/96 or local-use 64:ff9b:1::/48 (RFC 8215). */
export function isNat64(ip: Ip): boolean {
  const b = ip.bytes;
  if (ip.family !== 6 || b[0] !== 0x00 || b[1] !== 0x64 || b[2] !== 0xff || b[3] !== 0x9b) return false;
  return b.slice(4, 12).every((x) => x === 0) || (b[4] === 0x00 && b[5] === 0x01);
}

/**
 * Every IPv4 address a local-use NAT64 address (64:ff9b:1::/48) may carry: the operator picks the
 * prefix length, so each RFC 6052 layout (/48, /56, /64, /96) is a candidate.
 */
export function nat64Candidates(ip: Ip): Ip[] {
  if (!isNat64(ip)) return [];
  const b = ip.bytes;
  const at = (...i: number[]): Ip => ({ family: 4, bytes: i.map((k) => b[k]) });
  return [at(12, 13, 14, 15), at(6, 7, 9, 10), at(7, 9, 10, 11), at(9, 10, 11, 12)];
}

/** The IPv4 address an IPv6 address carries and reaches: mapped, compatible, NAT64 (64:ff9b::/96, and the /96 layout of 64:ff9b:1::/48) or 6to4 (2002::/16). */
export function embeddedIPv4(ip: Ip): Ip | null {
  if (ip.family !== 6) return null;
  const b = ip.bytes;
  const zeros = (from: number, to: number) => b.slice(from, to).every((x) => x === 0);
  const v4 = (at: number): Ip => ({ family: 4, bytes: b.slice(at, at + 4) });
  if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return v4(12); // ::ffff:a.b.c.d
  if (zeros(0, 8) && b[8] === 0xff && b[9] === 0xff && zeros(10, 12)) return v4(12); // ::ffff:0:a.b.c.d
  if (zeros(0, 12) && !zeros(12, 15)) return v4(12); // ::a.b.c.d (deprecated compatible form), not :: or ::1
  if (isNat64(ip)) return v4(12); // 64:ff9b::a.b.c.d, 64:ff9b:1::a.b.c.d
  if (b[0] === 0x20 && b[1] === 0x02) return v4(2); // 2002:aabb:ccdd::
  return null;
}
