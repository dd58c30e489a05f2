/**
 * ModelClient over the editor's language models (`vscode.lm`: GitHub Copilot or any extension
 * that provides chat models), with tool calling. The loop cannot tell it from the
 * OpenAI-compatible client: same requests in, same streamed text and tool calls out.
 */
import type { Logger } from '../../core/log';
import { ModelError, type ModelClient, type ModelRequest, type ModelResponse, type ModelToolCall, type StreamHandlers, type Usage, type WireTool } from '../../core/model/types';
import { TOOL_MODE_AUTO, type LmApi, type LmCancellationToken, type LmChat, type LmChatTool } from './lm-api';
import { toLmMessages, toLmTools } from './lm-messages';

export const LM_ENDPOINT = 'vscode.lm';
const JUSTIFICATION = 'Snowpea sends your chat, with its tools, to the model you picked.';

export interface LmClientOptions {
  /** `snowpea.model.name`: a model id or family; empty or unknown picks the editor's first model. */
  model: string;
  maxOutputTokens?: number | null;
  log: Logger;
}

function describe(m: LmChat): string {
  return `${m.vendor}/${m.id}`;
}

/** The model named by id, then by family, then `vendor/id`; the first available one when none matches. */
export async function pickLmModel(api: LmApi, wanted: string, log: Logger): Promise<LmChat> {
  const all = await api.lm.selectChatModels();
  if (!all.length) {
    throw new ModelError('not_found', 'No language models are available in this editor (vscode.lm). Install and sign in to a provider such as GitHub Copilot, or set snowpea.model.provider to "openai-compatible".');
  }
  const found = all.find((m) => m.id === wanted) ?? all.find((m) => m.family === wanted) ?? all.find((m) => describe(m) === wanted);
  if (found) return found;
  log.warn(`model "${wanted}" is not among this editor's language models (${all.map(describe).join(', ')}); using ${describe(all[0])}. Run Snowpea: Select Model to pick one.`);
  return all[0];
}

function toModelError(e: unknown, api: LmApi, model: string): ModelError {
  if (e instanceof ModelError) return e;
  const err = e as { code?: string; message?: string; name?: string };
  const base = `The editor's language model "${model}"`;
  const isLmError = api.LanguageModelError ? e instanceof api.LanguageModelError : err?.name === 'LanguageModelError';
  if (isLmError || typeof err?.code === 'string') {
    if (err.code === 'NoPermissions') return new ModelError('auth', `${base} refused Snowpea: allow Snowpea to use it when VS Code asks (Accounts menu > Manage Language Model Access). ${err.message ?? ''}`.trim());
    if (err.code === 'NotFound') return new ModelError('not_found', `${base} is no longer available: run Snowpea: Select Model. ${err.message ?? ''}`.trim());
    if (err.code === 'Blocked') return new ModelError('rate_limited', `${base} is blocked for now (quota or rate limit): try again later. ${err.message ?? ''}`.trim());
  }
  return new ModelError('server', `${base} failed: ${err?.message ?? String(e)}`);
}

export function createLmClient(api: LmApi, opts: LmClientOptions): ModelClient {
  let chosen: Promise<LmChat> | undefined;
  let resolvedName = opts.model;
  // The same tools array on unchanged rounds maps to the same converted array.
  const toolCache = new WeakMap<readonly WireTool[], LmChatTool[]>();
  const tools = (t: WireTool[]) => {
    let v = toolCache.get(t);
    if (!v) toolCache.set(t, (v = toLmTools(t)));
    return v;
  };

  async function complete(req: ModelRequest, handlers: StreamHandlers, signal: AbortSignal): Promise<ModelResponse> {
    const cancelled = () => new ModelError('cancelled', `The request to the editor's language model "${resolvedName}" was cancelled.`);
    if (signal.aborted) throw cancelled();
    chosen ??= pickLmModel(api, opts.model, opts.log).catch((e) => {
      chosen = undefined; // a provider may appear later (sign-in): look again next time
      throw e;
    });
    const model = await chosen;
    resolvedName = model.id;
    const cts = new api.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    opts.log.debug(`model request to ${LM_ENDPOINT}: ${describe(model)}, ${req.messages.length} messages, ${req.tools.length} tools`);
    let text = '';
    let usage: Usage | null;
    const toolCalls: ModelToolCall[] = [];
    try {
      const response = await model.sendRequest(
        toLmMessages(req.messages, api),
        {
          justification: JUSTIFICATION,
          ...(req.tools.length ? { tools: tools(req.tools), toolMode: TOOL_MODE_AUTO } : {}),
          ...(opts.maxOutputTokens ? { modelOptions: { max_tokens: opts.maxOutputTokens } } : {}),
        },
        cts.token,
      );
      for await (const part of response.stream) {
        if (signal.aborted) break;
        if (part instanceof api.LanguageModelTextPart) {
          if (!part.value) continue;
          text += part.value;
          try {
            handlers.onText?.(part.value);
          } catch (he) {
            throw { handlerError: he };
          }
        } else if (part instanceof api.LanguageModelToolCallPart) {
          toolCalls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
        }
      }
      if (signal.aborted) throw cancelled();
      usage = await estimateUsage(model, req, text, cts.token, opts.log);
    } catch (e) {
      if (e && typeof e === 'object' && 'handlerError' in e) throw e.handlerError; // the caller's own error, untouched
      if (signal.aborted) throw cancelled();
      const err = toModelError(e, api, resolvedName);
      opts.log.warn(`model request failed [${err.kind}]: ${err.message}`);
      throw err;
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
    return { text, toolCalls, usage, finishReason: toolCalls.length ? 'tool_calls' : 'stop' };
  }

  return {
    endpoint: LM_ENDPOINT,
    get model() {
      return resolvedName;
    },
    complete,
  };
}

/**
 * The API reports no token usage, so the model's own tokenizer counts the request's text (message
 * texts, tool calls, the tools block; not images) and the answer, in one call each: a context
 * meter marked as estimated, with nothing known to be cached. A failing count leaves no usage.
 */
async function estimateUsage(model: LmChat, req: ModelRequest, answer: string, token: LmCancellationToken, log: Logger): Promise<Usage | null> {
  try {
    const [promptTokens, completionTokens] = await Promise.all([model.countTokens(requestText(req), token), answer ? model.countTokens(answer, token) : 0]);
    return { promptTokens, completionTokens, cachedTokens: 0, estimated: true };
  } catch (e) {
    log.debug(`counting tokens with ${model.id} failed: ${(e as Error).message}`);
    return null;
  }
}

/** The text a request carries, for counting: what each message says and calls, then the tools block. */
export function requestText(req: ModelRequest): string {
  const parts: string[] = [];
  for (const m of req.messages) {
    if (typeof m.content === 'string') parts.push(m.content);
    else if (Array.isArray(m.content)) for (const p of m.content) if (p.type === 'text') parts.push(p.text);
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) parts.push(c.function.name, c.function.arguments);
  }
  if (req.tools.length) parts.push(JSON.stringify(req.tools));
  return parts.join('\n');
}
