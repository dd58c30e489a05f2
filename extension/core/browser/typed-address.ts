/**
 * `browser.privateNetwork: "typed-only"`: a loopback or LAN address opens only when the user
 * typed that exact address (host[:port]) in the conversation. A bare host counts for the
 * scheme's default port only; `localhost:5173` counts for port 5173 only.
 */

const HOST_CHAR = /[a-z0-9_-]/;

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether `candidate` appears in `text` as a whole address, not inside a longer name, port or address. */
function appearsAsAddress(text: string, candidate: string, hasPort: boolean): boolean {
  const isV6Bare = !candidate.startsWith('[') && candidate.includes(':') && !hasPort;
  const re = new RegExp(escapeRe(candidate), 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text[m.index - 1] ?? '';
    const after = text.slice(m.index + candidate.length, m.index + candidate.length + 2);
    const next = after[0] ?? '';
    re.lastIndex = m.index + 1;
    if (isV6Bare) {
      if (/[0-9a-f:]/.test(before) || /[0-9a-f:]/.test(next)) continue;
      return true;
    }
    if (HOST_CHAR.test(before) || before === '.') continue;
    if (hasPort) {
      if (/[0-9]/.test(next)) continue;
      return true;
    }
    if (HOST_CHAR.test(next)) continue;
    if (next === ':' && /[0-9]/.test(after[1] ?? '')) continue;
    if (next === '.' && HOST_CHAR.test(after[1] ?? '')) continue;
    return true;
  }
  return false;
}

/**
 * `host` is the url's host as the URL parser gives it (lowercase, IPv6 in brackets, no trailing dot);
 * `port` the port the url reaches; `defaultPort` its scheme's default.
 */
export function userTypedAddress(texts: readonly string[], host: string, port: number, defaultPort: number): boolean {
  const candidates: { text: string; hasPort: boolean }[] = [{ text: `${host}:${port}`, hasPort: true }];
  if (port === defaultPort) {
    candidates.push({ text: host, hasPort: false });
    if (host.startsWith('[')) candidates.push({ text: host.slice(1, -1), hasPort: false });
  }
  return texts.some((raw) => {
    const text = raw.toLowerCase();
    return candidates.some((c) => appearsAsAddress(text, c.text, c.hasPort));
  });
}
