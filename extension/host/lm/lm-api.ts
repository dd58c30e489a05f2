/**
 * The part of the editor's language-model API (`vscode.lm`) that Snowpea uses, as structural
 * types. Snowpea supports VS Code 1.90+, whose typings predate tool calling (1.95) and image
 * parts (LanguageModelDataPart, later still), so these are declared here and feature-checked
 * at run time: `lmApiFrom(vscode)` returns what the running editor has.
 */

export interface LmCancellationToken {
  readonly isCancellationRequested: boolean;
}

export interface LmCancellationTokenSource {
  readonly token: LmCancellationToken;
  cancel(): void;
  dispose(): void;
}

export interface LmTextPart {
  value: string;
}

export interface LmToolCallPart {
  callId: string;
  name: string;
  input: object;
}

export type LmMessage = object;

export interface LmChatTool {
  name: string;
  description: string;
  inputSchema?: object;
}

export interface LmChatResponse {
  stream: AsyncIterable<unknown>;
}

export interface LmChat {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly family: string;
  readonly maxInputTokens: number;
  countTokens(text: string, token?: LmCancellationToken): Thenable<number>;
  sendRequest(
    messages: LmMessage[],
    options: { justification?: string; tools?: LmChatTool[]; toolMode?: number; modelOptions?: Record<string, unknown> },
    token: LmCancellationToken,
  ): Thenable<LmChatResponse>;
}

export interface LmApi {
  lm: { selectChatModels(selector?: { vendor?: string; family?: string; id?: string }): Thenable<LmChat[]> };
  LanguageModelChatMessage: { User(content: string | unknown[]): LmMessage; Assistant(content: string | unknown[]): LmMessage };
  LanguageModelTextPart: new (value: string) => LmTextPart;
  LanguageModelToolCallPart: new (callId: string, name: string, input: object) => LmToolCallPart;
  LanguageModelToolResultPart: new (callId: string, content: unknown[]) => object;
  /** Absent before the editor could carry images to a language model. */
  LanguageModelDataPart?: { image(data: Uint8Array, mime: string): object };
  LanguageModelError?: new (...args: never[]) => Error & { code: string };
  CancellationTokenSource: new () => LmCancellationTokenSource;
}

/** Auto: the model decides whether to call a tool (LanguageModelChatToolMode.Auto). */
export const TOOL_MODE_AUTO = 1;

/**
 * The running editor's language-model API, or the reason it cannot serve Snowpea: no `lm`
 * namespace (before 1.90), or no tool-calling parts (before 1.95).
 */
export function lmApiFrom(vscodeModule: unknown): LmApi | { missing: string } {
  const v = vscodeModule as Record<string, unknown>;
  if (!v.lm || typeof (v.lm as { selectChatModels?: unknown }).selectChatModels !== 'function') return { missing: 'this editor has no language-model API (vscode.lm)' };
  if (typeof v.LanguageModelToolCallPart !== 'function' || typeof v.LanguageModelToolResultPart !== 'function') {
    return { missing: 'this editor\'s language-model API has no tool calling (it needs VS Code 1.95 or later)' };
  }
  return v as unknown as LmApi;
}
