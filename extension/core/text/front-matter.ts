import { parseDocument } from 'yaml';

/** A Markdown file's `---` YAML header, read safely, and the text after it. */
export interface FrontMatter {
  /** The header's top-level values as YAML gave them (strings, numbers, booleans, lists, maps). */
  data: Record<string, unknown>;
  body: string;
  /** Why the header could not be read ("not valid YAML (line 3, column 14): ..."); its block is still cut from the body. */
  problem?: string;
}

const FRONT_MATTER = /^\ufeff?---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Splits `---\n<YAML>\n---\nbody`. The YAML is read by the `yaml` package with the core schema
 * only: no custom or YAML 1.1 tags are resolved (they stay plain text); aliases are capped (100, the package's default).
 * A header YAML refuses (`description: Use when: ...`, common in hand-written files) is read as
 * plain top-level `key: value` lines, with the problem said.
 */
export function parseFrontMatter(text: string): FrontMatter {
  const m = FRONT_MATTER.exec(text);
  if (!m) return { data: {}, body: text };
  const body = text.slice(m[0].length);
  const doc = parseDocument(m[1], { schema: 'core', resolveKnownTags: false, uniqueKeys: true, prettyErrors: false, logLevel: 'silent' });
  const error = doc.errors[0];
  if (error) {
    // The block starts on line 2 of the file, after the opening ---.
    const before = m[1].slice(0, error.pos[0]).split('\n');
    const where = `not valid YAML (line ${before.length + 1}, column ${before[before.length - 1].length + 1}): ${error.message}`;
    const data = plainLines(m[1]);
    return { data, body, problem: Object.keys(data).length ? `${where}; read as plain key: value lines` : where };
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch (e) {
    return { data: {}, body, problem: `not readable: ${(e as Error).message}` }; // too many aliases (a "billion laughs" block)
  }
  if (value === null || value === undefined) return { data: {}, body };
  if (typeof value !== 'object' || Array.isArray(value)) return { data: {}, body, problem: 'not a YAML mapping of key: value lines' };
  return { data: value as Record<string, unknown>, body };
}

/** Top-level `key: value` lines of a block YAML refused, each value as written (one pair of surrounding quotes removed). */
function plainLines(block: string): Record<string, string> {
  const data: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const kv = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)\s*$/.exec(line);
    if (!kv || kv[1] in data) continue;
    data[kv[1]] = kv[2].replace(/^(["'])(.*)\1$/, '$2');
  }
  return data;
}

/** The header's scalar values as text (strings, numbers, booleans); lists and maps are left out. */
export function scalarMeta(data: Record<string, unknown>): Record<string, string> {
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(data)) if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') meta[k] = String(v);
  return meta;
}

/** A scalar value as one line of text (whitespace runs folded), or undefined. */
export function metaText(data: Record<string, unknown>, key: string): string | undefined {
  const v = data[key];
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') return undefined;
  const text = String(v).replace(/\s+/g, ' ').trim();
  return text || undefined;
}

/**
 * A list value: a YAML list of scalars, or a comma-separated string (`tools: Read, Grep`, as
 * Claude Code writes it). Undefined when the key is absent; an empty list when it is present but empty.
 */
export function metaList(data: Record<string, unknown>, key: string): string[] | undefined {
  const v = data[key];
  if (v === undefined || v === null) return undefined;
  const items = Array.isArray(v) ? v : typeof v === 'string' ? v.split(',') : [v];
  return items.flatMap((x) => (typeof x === 'string' || typeof x === 'number' ? [String(x).trim()] : [])).filter(Boolean);
}
