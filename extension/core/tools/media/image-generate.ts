/** media_image_generate: the Images API of the configured endpoint; the picture is saved in the workspace and attached. */
import { z } from 'zod';
import { EXTENSION_OF, sniffFormat } from '../../images/header';
import { defineTool, errorResult, okResult } from '../types';
import { imageBytesOf } from './image-response';
import { mediaClient, mediaError } from './media-client';
import { attachSaved, freePath, isResult, saveOutput, slugOf } from './media-files';
import { TOOL } from '../names';

const input = z.strictObject({
  prompt: z.string().min(1).describe('What the image should show.'),
  size: z
    .string()
    .regex(/^(\d{2,5}x\d{2,5}|auto)$/)
    .optional()
    .describe('WIDTHxHEIGHT, e.g. 1024x1024, 1536x1024, 1024x1536 (what the model supports), or auto.'),
  path: z.string().min(1).optional().describe('Where to save it in the workspace (default: generated/<words of the prompt>.png).'),
});

function target(workspaceRoot: string, a: z.infer<typeof input>): string {
  return a.path ?? freePath(workspaceRoot, `generated/${slugOf(a.prompt)}.png`);
}

export const mediaImageGenerateTool = defineTool({
  name: TOOL.media_image_generate,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: true },
  group: 'media',
  permission: 'write',
  deferred: true,
  summary: 'Generate an image from a prompt (Images API) and save it in the workspace.',
  description:
    'Generate an image from a text prompt with the endpoint\'s Images API (model from the setting media.imageModel). The image is saved in the workspace and attached so you can see it.',
  input,
  describeCall: (a) => `generate image: ${a.prompt.slice(0, 60)}`,
  approval: (a, ctx) => ({ summary: `generate an image and save it to ${target(ctx.workspaceRoot, a)}`, paths: [{ path: target(ctx.workspaceRoot, a), write: true }] }),
  async run(a, ctx) {
    const out = target(ctx.workspaceRoot, a);
    const model = ctx.settings['media.imageModel'];
    let bytes: Uint8Array;
    try {
      const client = await mediaClient(ctx);
      const res = await client.images.generate(
        { model, prompt: a.prompt, n: 1, ...(a.size ? { size: a.size as never } : {}), ...(/^dall-e/i.test(model) ? { response_format: 'b64_json' as const } : {}) },
        { signal: ctx.signal },
      );
      const got = await imageBytesOf(res, ctx.signal);
      if (isResult(got)) return got;
      bytes = got;
    } catch (e) {
      return mediaError(e, 'images generation API (POST /images/generations)', ctx);
    }
    const format = sniffFormat(bytes);
    if (!format) return errorResult('failed', `the endpoint answered with data that is not an image (${bytes.length} bytes)`);
    const path = a.path ?? out.replace(/\.png$/, `.${EXTENSION_OF[format]}`);
    const saved = await saveOutput(ctx, path, bytes);
    if (isResult(saved)) return saved;
    const { images, note } = await attachSaved(ctx, saved, 'media_image_generate');
    return okResult(`saved ${saved.display} (${format}, ${bytes.length} bytes, model ${model})${note}`, { images, writtenPaths: [saved.real] });
  },
});
