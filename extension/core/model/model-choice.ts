/**
 * The chat's model choice: a model and a reasoning effort the user picked in the composer for one
 * session, over the settings' `model.name` and `model.reasoningEffort`. It is stored with the
 * session (state.db), never written to a settings file. Effort reaches the provider as its own
 * parameter: `reasoning_effort` for OpenAI-compatible reasoning models, a thinking budget for
 * Claude (model.provider "anthropic"); a model with neither gets no effort control.
 */
import { z } from 'zod';
import type { Settings } from '../settings/schema';
import { bareModelName } from './capabilities';
import type { Effort, ModelChoice } from './types';

export type { Effort, ModelChoice } from './types';

export const EFFORTS = ['low', 'medium', 'high'] as const satisfies readonly Effort[];

/** Longest model name the composer's picker sends (an id, not a paragraph). */
export const MAX_MODEL_NAME_CHARS = 200;

/** A model id as the picker takes it: one line of printable characters. */
export const modelNameSchema = z
  .string()
  .trim()
  .min(1, 'a model name is needed')
  .max(MAX_MODEL_NAME_CHARS)
  .regex(/^[^\s\p{Cc}\p{Cf}]+$/u, 'a model name has no spaces or control characters');

export const modelChoiceSchema: z.ZodType<ModelChoice> = z.object({ model: modelNameSchema.optional(), effort: z.enum(EFFORTS).optional() });

/** How a model takes reasoning effort: `reasoning_effort` (OpenAI-compatible), a thinking budget (Anthropic), or not at all. */
export type ReasoningControl = 'effort' | 'thinking' | null;

/**
 * Models known to take `reasoning_effort` on an OpenAI-compatible endpoint: OpenAI's o1 (not
 * o1-mini or o1-preview), o3, o4-mini, gpt-5 (not gpt-5-chat), gpt-oss; Gemini 2.5 and later
 * through Google's OpenAI endpoint; xAI's grok-3-mini.
 */
const EFFORT_MODELS = /^(o1(?!-mini|-preview)|o3|o4-mini|gpt-5(?!-chat)|gpt-oss|gemini-(2\.5|[3-9])|grok-3-mini)/;

/** Claude models with extended thinking: 3.7 Sonnet and the 4 family on. */
const THINKING_MODELS = /^claude-(3-7|(opus|sonnet|haiku)-[4-9]|[4-9])/;

/** The thinking budget (tokens) of each effort for Claude: below the 32k output limit of Opus 4 with the default 8,192-token answer. */
export const THINKING_BUDGET: Record<Effort, number> = { low: 2048, medium: 8192, high: 16_384 };

type ChoiceSettings = Pick<Settings, 'model.provider' | 'model.name' | 'model.reasoningEffort'>;

/**
 * The effort control this model has: known reasoning models get one, and so does any model when the
 * user set `model.reasoningEffort` themselves. The editor's language models (vscode-lm) take none.
 */
export function reasoningControl(s: ChoiceSettings): ReasoningControl {
  if (s['model.provider'] === 'vscode-lm') return null;
  const bare = bareModelName(s['model.name']);
  if (s['model.provider'] === 'anthropic') return THINKING_MODELS.test(bare) || s['model.reasoningEffort'] ? 'thinking' : null;
  return EFFORT_MODELS.test(bare) || s['model.reasoningEffort'] ? 'effort' : null;
}

/**
 * The settings a session's requests use: its picked model over `model.name`, and its picked effort
 * over `model.reasoningEffort` when that model has an effort control (an effort picked for a
 * reasoning model is not sent to one that would refuse it).
 */
export function withModelChoice<S extends ChoiceSettings>(settings: S, choice: ModelChoice | undefined): S {
  if (!choice?.model && !choice?.effort) return settings;
  const s = { ...settings, 'model.name': choice.model ?? settings['model.name'] };
  if (choice.effort && reasoningControl(s)) s['model.reasoningEffort'] = choice.effort;
  return s;
}

/** Extended thinking's budget for the anthropic provider: the effort's budget, else model.thinkingBudgetTokens. */
export function thinkingBudget(s: Pick<Settings, 'model.reasoningEffort' | 'model.thinkingBudgetTokens'>): number | null {
  const effort = s['model.reasoningEffort'];
  return effort ? THINKING_BUDGET[effort] : s['model.thinkingBudgetTokens'];
}

/** What the composer's effort control shows for these settings and choice; undefined when the model has none. */
export interface EffortInfo {
  control: 'effort' | 'thinking';
  /** The session's pick; null: the default. */
  picked: Effort | null;
  /** The default option's words: "default" or "off" (Claude without a thinking budget). */
  defaultLabel: string;
  /** What the default means, for its tooltip. */
  defaultMeans: string;
}

export function effortInfo(settings: ChoiceSettings & Pick<Settings, 'model.thinkingBudgetTokens'>, choice: ModelChoice | undefined): EffortInfo | undefined {
  const effective = withModelChoice(settings, choice);
  const control = reasoningControl(effective);
  if (!control) return undefined;
  const configured = settings['model.reasoningEffort'];
  const budget = settings['model.thinkingBudgetTokens'];
  const picked = choice?.effort ?? null;
  if (configured) return { control, picked, defaultLabel: 'default', defaultMeans: `${configured}, from the model.reasoningEffort setting` };
  if (control === 'effort') return { control, picked, defaultLabel: 'default', defaultMeans: "the model's own default (no reasoning_effort sent)" };
  if (budget) return { control, picked, defaultLabel: 'default', defaultMeans: `a ${budget}-token thinking budget, from the model.thinkingBudgetTokens setting` };
  return { control, picked, defaultLabel: 'off', defaultMeans: 'no extended thinking' };
}
