/**
 * The OpenAI SDK client the media tools use: the session's endpoint (model.baseUrl) and the key
 * from ToolContext.apiKey, with failures turned into tool errors that say which API the endpoint
 * lacks (a 404) or what it answered.
 */
import OpenAI from 'openai';
import { errorResult, type ToolContext, type ToolResult } from '../types';

export async function mediaClient(ctx: ToolContext): Promise<OpenAI> {
  const key = (await ctx.apiKey?.()) || 'none';
  return new OpenAI({
    baseURL: ctx.settings['model.baseUrl'],
    apiKey: key,
    organization: null,
    project: null,
    maxRetries: Math.min(2, ctx.settings['model.maxRetries']),
    timeout: Math.max(60, ctx.settings['model.requestTimeoutS']) * 1000,
  });
}

function endpointOf(ctx: ToolContext): string {
  return ctx.settings['model.baseUrl'].replace(/\/+$/, '');
}

/** What the model reads when a media request fails; `api` names it ("images generation API (POST /images/generations)"). */
export function mediaError(e: unknown, api: string, ctx: ToolContext): ToolResult {
  const where = endpointOf(ctx);
  if (e instanceof OpenAI.APIUserAbortError || ctx.signal.aborted) return errorResult('cancelled', `the ${api} request was cancelled`);
  if (e instanceof OpenAI.APIConnectionTimeoutError) return errorResult('timeout', `the endpoint ${where} did not answer the ${api} request in time`);
  if (e instanceof OpenAI.APIConnectionError) return errorResult('failed', `could not reach the endpoint ${where} for the ${api}: ${e.message}`);
  if (e instanceof OpenAI.APIError) {
    const status = e.status;
    const said = (e.error as { message?: string } | undefined)?.message ?? e.message;
    if (status === 404 || status === 405 || status === 501) {
      return errorResult('unavailable', `the endpoint ${where} does not offer the ${api} (HTTP ${status}: ${said}); media tools need an OpenAI-compatible server with that API`);
    }
    if (status === 401 || status === 403) return errorResult('denied', `the endpoint ${where} refused the ${api} request (HTTP ${status}: ${said}); check the API key`);
    return errorResult('failed', `the ${api} request to ${where} failed (HTTP ${status ?? '?'}: ${said})`);
  }
  throw e;
}
