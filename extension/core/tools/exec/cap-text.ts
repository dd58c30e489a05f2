import { displayPath } from '../paths';
import type { ToolContext } from '../types';
import { OutputCapture } from './output-capture';

/** Caps an already complete text the way shell output is capped (head, note, tail; full text saved under scratch). */
export async function capText(text: string, ctx: ToolContext, label: string): Promise<string> {
  const max = ctx.settings['tools.outputMaxChars'];
  if (text.length <= max) return text;
  const cap = new OutputCapture(max, ctx.scratchDir, label);
  cap.push(text);
  return (await cap.finish((p) => displayPath(ctx.workspaceRoot, p))).text;
}
