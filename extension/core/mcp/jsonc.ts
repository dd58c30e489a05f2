/**
 * JSON with comments and trailing commas, as VS Code writes `.vscode/mcp.json`: comments and
 * trailing commas are blanked out (strings untouched, positions kept for error messages), then
 * JSON.parse reads the rest.
 */
export function parseJsonc(text: string): unknown {
  return JSON.parse(stripJsonc(text));
}

export function stripJsonc(text: string): string {
  const out = text.replace(/^\uFEFF/, '').split('');
  let i = 0;
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  while (i < out.length) {
    const c = out[i];
    if (c === '"') {
      i++;
      while (i < out.length && out[i] !== '"') i += out[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '/' && out[i + 1] === '/') {
      const end = out.indexOf('\n', i);
      const stop = end < 0 ? out.length : end;
      blank(i, stop);
      i = stop;
    } else if (c === '/' && out[i + 1] === '*') {
      let end = i + 2;
      while (end < out.length && !(out[end] === '*' && out[end + 1] === '/')) end++;
      blank(i, Math.min(out.length, end + 2));
      i = end + 2;
    } else if (c === ',') {
      let j = i + 1;
      while (j < out.length && /\s/.test(out[j])) j++;
      if (out[j] === '}' || out[j] === ']') out[i] = ' ';
      i++;
    } else i++;
  }
  return out.join('');
}
