/** media_image_edit: the Images API's edit endpoint on a workspace image; the result is saved beside it and attached. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toFile } from 'openai';
import { z } from 'zod';
import { MIME_OF, sniffFormat } from '../../images/header';
import { defineTool, errorResult, okResult } from '../types';
import { imageBytesOf } from './image-response';
import { mediaClient, mediaError } from './media-client';
import { attachSaved, besidePath, derivedFileApproval, inputFile, isResult, saveOutput } from './media-files';
import { TOOL } from '../names';

const input = z.strictObject({
  path: z.string().min(1).describe('The image to edit (PNG, JPEG or WebP), relative to the workspace.'),
  prompt: z.string().min(1).describe('What to change.'),
  output: z.string().min(1).optional().describe('Where to save the result (default: beside the input as <name>-edited.png).'),
});

const target = (root: string, a: z.infer<typeof input>) => a.output ?? besidePath(root, a.path, 'edited', '.png');

export const mediaImageEditTool = defineTool({
  name: TOOL.media_image_edit,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: true },
  group: 'media',
  permission: 'write',
  deferred: true,
  summary: 'Edit a workspace image from a prompt (Images API) and save the result.',
  description: 'Edit an image from the workspace as the prompt says, with the endpoint\'s Images API (model from media.imageModel). The result is saved as a new file (the input is kept) and attached.',
  input,
  describeCall: (a) => `edit image ${a.path}: ${a.prompt.slice(0, 50)}`,
  approval: (a, ctx) => {
    const out = target(ctx.workspaceRoot, a);
    return derivedFileApproval(`edit ${a.path} and save the result to ${out}`, a.path, out);
  },
  async run(a, ctx) {
    const src = inputFile(ctx, a.path);
    if (isResult(src)) return src;
    const original = new Uint8Array(await fs.promises.readFile(src.real));
    const format = sniffFormat(original);
    if (!format) return errorResult('invalid_arguments', `${src.display} is not a PNG, JPEG, GIF or WebP image`);
    const model = ctx.settings['media.imageModel'];
    let bytes: Uint8Array;
    try {
      const client = await mediaClient(ctx);
      const image = await toFile(original, path.basename(src.real), { type: MIME_OF[format] });
      const res = await client.images.edit({ model, image, prompt: a.prompt, n: 1, ...(/^dall-e/i.test(model) ? { response_format: 'b64_json' as const } : {}) }, { signal: ctx.signal });
      const got = await imageBytesOf(res, ctx.signal);
      if (isResult(got)) return got;
      bytes = got;
    } catch (e) {
      return mediaError(e, 'images edit API (POST /images/edits)', ctx);
    }
    if (!sniffFormat(bytes)) return errorResult('failed', `the endpoint answered with data that is not an image (${bytes.length} bytes)`);
    const saved = await saveOutput(ctx, target(ctx.workspaceRoot, a), bytes);
    if (isResult(saved)) return saved;
    const { images, note } = await attachSaved(ctx, saved, 'media_image_edit');
    return okResult(`saved ${saved.display} (edited from ${src.display}, ${bytes.length} bytes, model ${model})${note}`, { images, writtenPaths: [saved.real] });
  },
});
