/**
 * The browser's URL policy. Cloud-metadata addresses are refused always, in any spelling;
 * loopback and LAN follow `browser.privateNetwork`; only http and https open. Hostnames are
 * resolved (through an injectable resolver) and every address they give is checked. The
 * addresses a check returns are the ones the pinning proxy connects to, so what was checked
 * is what is reached.
 */
import { classifyIp } from './address-class';
import { formatIp, parseIp, type Ip } from './ip';
import { userTypedAddress } from './typed-address';

export type PrivateNetwork = 'allow' | 'typed-only' | 'deny';

export interface PolicyOptions {
  privateNetwork: PrivateNetwork;
  /** What the user typed in the conversation (typed-only matches addresses against it). */
  typedTexts: readonly string[];
}

/** Resolves a hostname to its addresses (IPv4 or IPv6 text). Throws when the name does not resolve. */
export type Resolver = (host: string) => Promise<string[]>;

export type Verdict =
  | { allowed: true; addresses: string[] }
  | { allowed: false; code: 'policy_blocked' | 'not_found'; reason: string };

export interface Target {
  scheme: 'http' | 'https';
  /** Lowercase, no trailing dot; IPv6 in brackets, as in a url. */
  host: string;
  port: number;
  defaultPort: number;
  ip: Ip | null;
}

/** Names that are cloud-metadata endpoints whatever they resolve to. */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog']);

const DEFAULT_PORT = { http: 80, https: 443 } as const;

const refuse = (reason: string): Verdict => ({ allowed: false, code: 'policy_blocked', reason });

function normalizeHost(raw: string): string {
  return raw.toLowerCase().replace(/\.+$/, '');
}

function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

/** A host and port reached over a scheme (the proxy's view of a request). */
export function hostTarget(rawHost: string, port: number, scheme: 'http' | 'https'): Target {
  const host = normalizeHost(rawHost);
  const ip = parseIp(host);
  const shown = ip?.kind() === 'ipv6' ? `[${formatIp(ip)}]` : ip ? formatIp(ip) : host;
  return { scheme, host: ip ? shown : host, port, defaultPort: DEFAULT_PORT[scheme], ip };
}

/** Parses a url the browser is asked to open; refuses anything but http(s). */
export function parseTarget(url: string): { target: Target } | { reason: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { reason: `${JSON.stringify(url)} is not a valid url; give a full url such as https://example.com/` };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    return { reason: `only http and https urls can be opened, not ${u.protocol} urls` };
  }
  if (!u.hostname) return { reason: `${url} has no host` };
  const scheme = u.protocol === 'http:' ? 'http' : 'https';
  return { target: hostTarget(u.hostname, u.port ? Number(u.port) : DEFAULT_PORT[scheme], scheme) };
}

function shownAddress(t: Target): string {
  return t.port === t.defaultPort ? t.host : `${t.host}:${t.port}`;
}

/** The verdict for one address the target reaches; `via` names the hostname it came from. */
function judgeAddress(t: Target, ip: Ip, opts: PolicyOptions, via?: string): Verdict | null {
  const c = classifyIp(ip);
  const what = via ? `${via} resolves to ${formatIp(ip)}, which is ${c.label}` : `${formatIp(ip)} is ${c.label}`;
  if (c.kind === 'metadata') return refuse(`${what}; cloud-metadata addresses are never opened`);
  if (c.kind === 'reserved') return refuse(`${what}, not an address a web page lives at`);
  if (c.kind === 'public' || opts.privateNetwork === 'allow') return null;
  if (opts.privateNetwork === 'deny') {
    return refuse(`${what}, and browser.privateNetwork is "deny", so loopback and LAN addresses are not opened`);
  }
  if (userTypedAddress(opts.typedTexts, t.host, t.port, t.defaultPort)) return null;
  return refuse(
    `${what}; with browser.privateNetwork "typed-only" such an address opens only when the user typed it ` +
      `(${shownAddress(t)}) in the conversation. Ask the user to type the address if they want it opened.`,
  );
}

/** The part of the check that needs no DNS: metadata names and IP literals. Undefined: the name must be resolved. */
export function checkWithoutDns(t: Target, opts: PolicyOptions): Verdict | undefined {
  if (METADATA_NAMES.has(t.host)) return refuse(`${t.host} is a cloud-metadata endpoint; it is never opened`);
  if (t.ip) return judgeAddress(t, t.ip, opts) ?? { allowed: true, addresses: [formatIp(t.ip)] };
  return undefined;
}

/** Resolves the target's name (once) and checks every address it gives; an allowed verdict carries those addresses. */
export async function checkTarget(t: Target, opts: PolicyOptions, resolve: Resolver): Promise<Verdict> {
  const quick = checkWithoutDns(t, opts);
  if (quick) return quick;
  let answers: string[];
  try {
    answers = await resolve(t.host);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
    if (!isLocalhostName(t.host)) return { allowed: false, code: 'not_found', reason: `${t.host} could not be resolved (${code})` };
    answers = [];
  }
  const ips = answers.map((a) => parseIp(a)).filter((ip): ip is Ip => ip !== null);
  if (isLocalhostName(t.host)) {
    // localhost is this machine whatever a resolver says, as in browsers.
    const loop = ips.filter((ip) => classifyIp(ip).kind === 'loopback');
    const use = loop.length ? loop : [parseIp('127.0.0.1')!, parseIp('::1')!];
    for (const ip of use) {
      const v = judgeAddress(t, ip, opts, t.host);
      if (v) return v;
    }
    return { allowed: true, addresses: use.map(formatIp) };
  }
  if (ips.length === 0) return { allowed: false, code: 'not_found', reason: `${t.host} did not resolve to any address` };
  for (const ip of ips) {
    const v = judgeAddress(t, ip, opts, t.host);
    if (v) return v;
  }
  return { allowed: true, addresses: ips.map(formatIp) };
}

/** The whole check for a url: scheme, name, resolution, every address. */
export async function checkUrl(url: string, opts: PolicyOptions, resolve: Resolver): Promise<Verdict> {
  const p = parseTarget(url);
  if ('reason' in p) return refuse(p.reason);
  return checkTarget(p.target, opts, resolve);
}

/** checkUrl without DNS: a verdict when the url is decided by its text alone, else undefined. */
export function checkUrlWithoutDns(url: string, opts: PolicyOptions): Verdict | undefined {
  const p = parseTarget(url);
  if ('reason' in p) return refuse(p.reason);
  return checkWithoutDns(p.target, opts);
}
