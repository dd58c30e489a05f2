/** The image bytes of an Images API answer: `b64_json`, or a `url` to download. */
import { errorResult, type ToolResult } from '../types';

interface ImagesAnswer {
  data?: Array<{ b64_json?: string | null; url?: string | null }> | null;
}

export async function imageBytesOf(res: ImagesAnswer, signal: AbortSignal): Promise<Uint8Array | ToolResult> {
  const first = res.data?.[0];
  if (first?.b64_json) return new Uint8Array(Buffer.from(first.b64_json, 'base64'));
  if (first?.url && /^https?:\/\//i.test(first.url)) {
    const r = await fetch(first.url, { signal });
    if (!r.ok) return errorResult('failed', `the generated image could not be downloaded from ${first.url} (HTTP ${r.status})`);
    return new Uint8Array(await r.arrayBuffer());
  }
  return errorResult('failed', 'the endpoint answered without an image (no b64_json or url in data[0])');
}
