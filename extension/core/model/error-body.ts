/**
 * An HTTP error body read whatever its shape, so the user sees the provider's own words:
 * `{error:{message,code,type}}` (OpenAI and most), `[{error:{...}}]` (Gemini), a flat
 * `{message,type,code}` (Cerebras, vLLM's `{object:"error",...}`), `{detail}` (FastAPI servers,
 * a string or a list of `{msg}`), `{error:"text"}` (TGI, Ollama), OpenRouter's wrapped provider
 * error (`metadata.raw`), plain text, or an HTML page.
 */
import { plainServerText } from './errors-text';

export interface ErrorBody {
  /** The provider's message ('' when the body says nothing readable). */
  message: string;
  code?: string;
  type?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : typeof v === 'number' ? String(v) : undefined);

function fromObject(o: Record<string, unknown>): ErrorBody | null {
  const err = o.error;
  if (typeof err === 'string') return { message: err, type: str(o.error_type) ?? str(o.type), code: str(o.code) };
  if (err && typeof err === 'object' && !Array.isArray(err)) {
    const e = err as Record<string, unknown>;
    let message = str(e.message) ?? '';
    // OpenRouter: "Provider returned error" with the upstream's own body in metadata.raw.
    const meta = e.metadata as Record<string, unknown> | undefined;
    const raw = meta && str(meta.raw);
    if (raw) {
      const inner = readErrorBody(raw).message;
      const who = str(meta?.provider_name);
      message = `${message ? `${message}: ` : ''}${inner || raw}${who ? ` (${who})` : ''}`;
    }
    if (!message) message = JSON.stringify(e);
    return { message, code: str(e.code) ?? str(e.status), type: str(e.type) ?? str(e.status) };
  }
  const detail = o.detail;
  if (typeof detail === 'string') return { message: detail };
  if (Array.isArray(detail)) {
    const msgs = detail.map((d) => (d && typeof d === 'object' ? str((d as Record<string, unknown>).msg) : str(d))).filter(Boolean);
    if (msgs.length) return { message: msgs.join('; ') };
  }
  const message = str(o.message) ?? str(o.msg) ?? str(o.error_message);
  if (message) return { message, code: str(o.code), type: str(o.type) };
  return null;
}

/** The provider's message, code and type from an error body's text. */
export function readErrorBody(text: string): ErrorBody {
  const t = text.trim();
  if (!t) return { message: '' };
  try {
    const v: unknown = JSON.parse(t);
    const first = Array.isArray(v) ? v[0] : v;
    if (first && typeof first === 'object') {
      const got = fromObject(first as Record<string, unknown>);
      if (got) return got;
    }
    if (typeof first === 'string') return { message: first };
    // JSON with nothing to say ({}, [], null) is no reason at all.
    const empty = v === null || (typeof v === 'object' && Object.keys(v as object).length === 0);
    return { message: empty ? '' : plainServerText(t, Infinity) };
  } catch {
    return { message: plainServerText(t, Infinity) };
  }
}
