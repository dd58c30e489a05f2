import { composeUserPrompt, type ComposedPrompt, type ComposeInput } from '../input/compose';
import { commandPart, findCommand, slashInvocation, type WorkspaceLibrary } from '../library';
import type { AttachmentStore } from '../images/store';
import type { AgentOptions } from './agent-options';

/**
 * A user's message as the loop takes it: `@path` mentions expanded, pasted images and `--attach`
 * paths through the attachment store (refused images leave a note, never lose the rest), and for
 * `/name args` naming a prompt file's command, the command's text after what the user typed,
 * which stays first (their own words).
 */
export async function composeTurn(
  input: ComposeInput,
  src: { opts: AgentOptions; attachments: AttachmentStore; library: WorkspaceLibrary },
  signal?: AbortSignal,
): Promise<ComposedPrompt> {
  const { opts } = src;
  const composed = await composeUserPrompt(input, {
    workspaceRoot: opts.workspaceRoot,
    store: src.attachments,
    readMaxLines: opts.settings()['tools.readMaxLines'],
    fileReader: opts.fileReader,
    signal,
    mentionSources: opts.mentionSources,
    workspaceTrusted: opts.workspaceTrusted?.() ?? true,
  });
  const slash = slashInvocation(input.text);
  const command = slash && findCommand(src.library.commands(), slash.name);
  if (!slash || !command) return composed;
  const part = { type: 'text' as const, text: commandPart(command, slash.args, opts.workspaceRoot) };
  const content = typeof composed.content === 'string' ? [{ type: 'text' as const, text: composed.content }, part] : [...composed.content, part];
  return { ...composed, content };
}
