import type { ToolCall } from '../conversation/messages';
import { parseToolArguments } from './arguments';
import type { AnyTool } from './types';

/**
 * What a tool card shows of a call, computed here once: the live events (agent/loop.ts) and the
 * replay of a stored session (host/chat/transcript.ts) carry these strings, and the webview shows
 * them as they are.
 */

/** Longest title; a longer one is cut with an ellipsis. */
const TITLE_CHARS = 160;
/** Longest argument preview on a running card. */
const PREVIEW_CHARS = 120;
/** Longest result summary on a finished card. */
const SUMMARY_CHARS = 200;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * The card's heading: the tool's describeCall on the parsed arguments ("read src/a.ts",
 * "run: npm test") on one line; the tool's name when the tool is unknown, has no describeCall,
 * the arguments do not parse, or describeCall fails.
 */
export function callTitle(call: Pick<ToolCall, 'name' | 'arguments'>, tool: AnyTool | undefined, jsonSchema: () => Record<string, unknown>): string {
  if (!tool?.describeCall) return call.name;
  const parsed = parseToolArguments(tool, call.arguments, jsonSchema());
  if (!parsed.ok) return call.name;
  let title: string;
  try {
    title = tool.describeCall(parsed.value).replace(/\s+/g, ' ').trim();
  } catch {
    return call.name;
  }
  return title ? clip(title, TITLE_CHARS) : call.name;
}

/** A short one-line preview of the arguments as sent: the values of an object, or the text itself when it does not parse. */
export function argsPreview(args: string, max = PREVIEW_CHARS): string {
  let text = args.trim();
  try {
    const parsed: unknown = JSON.parse(args);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      text = Object.values(parsed as Record<string, unknown>)
        .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)))
        .join(' ');
    }
  } catch {
    // Malformed arguments (the model's fault): show them as they are.
  }
  return clip(text.replace(/\s+/g, ' '), max);
}

/**
 * The summary of a call still running: nothing when its title already says what runs (a
 * describeCall title), else a preview of its arguments (no title, or the arguments did not parse).
 * `title` absent: a call stored before titles were (the title is then the tool's name).
 */
export function callSummary(call: Pick<ToolCall, 'name' | 'arguments' | 'title'>): string {
  return call.title === undefined || call.title === call.name ? argsPreview(call.arguments) : '';
}

/** The summary of a finished call: the first line of the result the model saw. */
export function resultSummary(content: string): string {
  return clip(content.split('\n', 1)[0] ?? '', SUMMARY_CHARS);
}
