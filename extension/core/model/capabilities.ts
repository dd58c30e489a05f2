/**
 * What a model can take: its context window (tokens) and whether it accepts images.
 * A small built-in table for common model names, overridden by the settings
 * `model.contextWindow` / `model.supportsImages`; unknown models get conservative
 * defaults and `known: false` so the caller can log that it guessed.
 */
import type { Settings } from '../settings/schema';

export interface ModelCapabilities {
  contextWindow: number;
  supportsImages: boolean;
  /** The name matched the built-in table. */
  known: boolean;
  /** Which entry matched (for logs), or null. */
  matched: string | null;
}

interface Entry {
  pattern: RegExp;
  contextWindow: number;
  supportsImages: boolean;
}

export const unknownModelDefaults = { contextWindow: 32_768, supportsImages: false } as const;

const e = (pattern: RegExp, contextWindow: number, supportsImages: boolean): Entry => ({ pattern, contextWindow, supportsImages });

/** First match wins: specific names before their families. Names are matched lowercased, without a provider prefix. */
const table: Entry[] = [
  // OpenAI
  e(/^gpt-4\.1/, 1_047_576, true),
  e(/^gpt-4o/, 128_000, true),
  e(/^gpt-4-turbo/, 128_000, true),
  e(/^gpt-4-32k/, 32_768, false),
  e(/^gpt-4(?![.o])/, 8_192, false),
  e(/^gpt-3\.5-turbo/, 16_385, false),
  e(/^gpt-5/, 272_000, true), // 400k total, of which 272k input
  e(/^gpt-oss/, 131_072, false),
  e(/^o1-mini/, 128_000, false),
  e(/^o1-preview/, 128_000, false),
  e(/^o3-mini/, 200_000, false),
  e(/^o(1|3|4-mini)(?![0-9])/, 200_000, true),
  // Anthropic
  e(/^claude-(2|instant)/, 100_000, false),
  e(/^claude-/, 200_000, true),
  // Google
  e(/^gemini-1\.0/, 32_768, false),
  e(/^gemini-/, 1_048_576, true),
  e(/^gemma-?3/, 131_072, true),
  // Meta
  e(/^llama-?3\.2-?vision/, 131_072, true),
  e(/^llama-?(3\.[1-3]|4)/, 131_072, false),
  e(/^(meta-)?llama-?3/, 8_192, false),
  // Qwen
  e(/^qwen3-coder/, 262_144, false),
  e(/^qwen2\.5-coder/, 32_768, false),
  e(/^qwen2\.5-?vl/, 32_768, true),
  e(/^qwen/, 32_768, false),
  // DeepSeek
  e(/^deepseek-coder-v2/, 131_072, false),
  e(/^deepseek-coder/, 16_384, false),
  e(/^deepseek/, 128_000, false),
  // Mistral
  e(/^codestral/, 256_000, false),
  e(/^devstral/, 131_072, false),
  e(/^pixtral/, 131_072, true),
  e(/^mistral-(large|medium)/, 131_072, false),
  e(/^mistral-small/, 131_072, true),
  e(/^(open-)?mixtral/, 32_768, false),
  e(/^(open-)?mistral/, 32_768, false),
];

/** `openrouter/anthropic/Claude-3.5-Sonnet:beta` → `claude-3.5-sonnet:beta`. */
export function bareModelName(name: string): string {
  return name.trim().toLowerCase().replace(/^.*\//, '');
}

/** Built-in facts about a model name, or null when the table does not know it. */
export function lookupModel(name: string): Omit<ModelCapabilities, 'known'> | null {
  const bare = bareModelName(name);
  const hit = table.find((t) => t.pattern.test(bare));
  return hit ? { contextWindow: hit.contextWindow, supportsImages: hit.supportsImages, matched: hit.pattern.source } : null;
}

/** Capabilities for `name`, with non-null settings taking precedence over the table. */
export function modelCapabilities(name: string, settings: Partial<Pick<Settings, 'model.contextWindow' | 'model.supportsImages'>> = {}): ModelCapabilities {
  const hit = lookupModel(name);
  const base = hit ?? { ...unknownModelDefaults, matched: null };
  return {
    contextWindow: settings['model.contextWindow'] ?? base.contextWindow,
    supportsImages: settings['model.supportsImages'] ?? base.supportsImages,
    known: hit !== null,
    matched: base.matched,
  };
}
