/**
 * Caps for project instruction files, derived from the model's context window when the
 * settings leave them unset (docs/design.md, Instruction files and caps).
 *
 * Formula (about 4 characters per token): a single file may take 10% of the window, the whole
 * `# Project Context` block 15%, each clamped to fixed bounds:
 *   per-file = clamp(window × 4 × 0.10, 20,000, 500,000)   (floor 8,000 for windows ≤ 32k tokens)
 *   block    = clamp(window × 4 × 0.15, 12,000, 120,000)
 * so 8k → 8,000 / 12,000; 32k → 12,800 / 19,200; 128k → 51,200 / 76,800; 1M → 400,000 / 120,000.
 */
export interface ContextCaps {
  perFile: number;
  block: number;
}

const CHARS_PER_TOKEN = 4;

function clamp(x: number, lo: number, hi: number): number {
  return Math.max(lo, Math.min(hi, Math.round(x)));
}

export function contextCaps(contextWindowTokens: number, perFileSetting: number | null, blockSetting: number | null): ContextCaps {
  const chars = contextWindowTokens * CHARS_PER_TOKEN;
  const floor = contextWindowTokens <= 32_000 ? 8_000 : 20_000;
  return {
    perFile: perFileSetting ?? clamp(chars * 0.1, floor, 500_000),
    block: blockSetting ?? clamp(chars * 0.15, 12_000, 120_000),
  };
}

export function truncationMarker(omitted: number, displayPath: string): string {
  return `…[truncated: ${omitted} more chars; read ${displayPath} for the rest]`;
}

/**
 * Fits `text` into `cap` characters: its head (70% of the cap) and tail (20%) around the
 * truncation marker. Text within the cap is returned as is.
 */
export function clipToCap(text: string, cap: number, displayPath: string): string {
  if (text.length <= cap) return text;
  const head = Math.floor(cap * 0.7);
  const tail = Math.floor(cap * 0.2);
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n${truncationMarker(omitted, displayPath)}\n${tail > 0 ? text.slice(text.length - tail) : ''}`;
}
