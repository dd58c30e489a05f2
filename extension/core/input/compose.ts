/**
 * A user's message as the agent gets it: the typed text with its `@path` mentions expanded,
 * the composer's pasted/dropped/picked images and the `--attach` / `/attach` paths, every image
 * through the attachment store. An image that is refused (too large, corrupt, not an image)
 * drops out with a note the model reads and a line the user sees; the rest of the message stays.
 */
import * as path from 'node:path';
import type { ContentPart, ImageRef } from '../conversation/messages';
import { resolveToolPath } from '../tools/paths';
import { attachPath, expandAtPaths, refusedPart, type AtPathOptions, type AtPathStore, type Mention } from './at-path';
import { mentionRefusal } from './mention-path';
import { cleanName } from '../images/store';
import { ImageError } from '../images/limits';

/** An image from the webview composer (protocol: outgoingImageSchema); its size is verified here again. */
export interface PastedImage {
  name: string;
  mime: string;
  dataBase64: string;
}

export interface ComposeInput {
  text: string;
  images?: PastedImage[];
  /** `snowpea run --attach PATH` / `/attach PATH`: relative to the workspace, or absolute. */
  attach?: string[];
}

export interface ComposeOptions extends AtPathOptions {
  workspaceRoot: string;
  store: AtPathStore & { addBase64(data: string, opts: { name: string; mime?: string; source?: string; signal?: AbortSignal }): Promise<ImageRef> };
}

export interface ComposedPrompt {
  /** A plain string when nothing was attached, so plain prompts stay as they were. */
  content: string | ContentPart[];
  /** One line per image or path that was not attached, for the user. */
  problems: string[];
  /** What became of each `@path` and `--attach` path. */
  mentions: Mention[];
  images: ImageRef[];
}

export async function composeUserPrompt(input: ComposeInput, opts: ComposeOptions): Promise<ComposedPrompt> {
  const { parts, mentions } = await expandAtPaths(input.text, opts.workspaceRoot, opts.store, opts);
  const problems = mentions.flatMap((m) => (m.note ? [m.note] : []));

  for (const img of input.images ?? []) {
    const name = cleanName(img.name);
    try {
      parts.push(await opts.store.addBase64(img.dataBase64, { name, mime: img.mime, source: 'paste', signal: opts.signal }));
    } catch (e) {
      if (!(e instanceof ImageError)) throw e;
      const note = `[image ${name} not attached: ${e.message}]`;
      parts.push({ type: 'text', text: note });
      problems.push(note);
    }
  }

  for (const typed of input.attach ?? []) {
    const r = resolveToolPath(opts.workspaceRoot, typed);
    const name = path.isAbsolute(typed) ? r.display : typed.replace(/\\/g, '/').replace(/^\.\//, '');
    if (!r.exists) {
      const note = `[${name}: no such file; not attached]`;
      mentions.push({ raw: typed, path: typed, kind: 'missing', note });
      problems.push(note);
      parts.push({ type: 'text', text: note });
      continue;
    }
    const why = mentionRefusal(opts.workspaceRoot, r);
    const result = why ? refusedPart(name, why) : await attachPath(r.real, name, opts.store, opts);
    mentions.push({ raw: typed, path: typed, kind: result.kind, ...(result.note ? { note: result.note } : {}) });
    if (result.note) problems.push(result.note);
    parts.push(...result.parts);
  }

  const images = parts.filter((p): p is ImageRef => p.type === 'image');
  const content = parts.length === 1 && parts[0].type === 'text' ? parts[0].text : parts;
  return { content, problems, mentions, images };
}

/**
 * What a composed prompt's session title is made of: the user's own text or, when they typed
 * none, the names of what they attached. Never the notes about refused attachments, nor the
 * inlined files.
 */
export function ownText(input: ComposeInput): string {
  if (input.text.trim()) return input.text;
  return [...(input.images ?? []).map((img) => cleanName(img.name)), ...(input.attach ?? [])].join(', ');
}

/**
 * What the user typed, from a composed prompt as the transcript stores it. composeUserPrompt
 * puts the typed text first, as its own part (the whole content, a plain string, when nothing
 * came with it); every later text part is an inlined file, an image marker or a note about
 * something not attached. The stored counterpart of ownText, for replaying a user message.
 */
export function typedText(content: string | ContentPart[]): string {
  if (typeof content === 'string') return content;
  const first = content[0];
  return first?.type === 'text' ? first.text : '';
}
