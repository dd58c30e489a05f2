/**
 * view_image: puts an image file through the attachment store; the loop then adds the picture
 * in a user message after this round's tool results. The tool line itself is one short
 * sentence and never carries the image data.
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import { ImageError, type ImageErrorCode } from '../../images/limits';
import { notFoundResult } from './missing';
import { notRegularFileMessage } from '../file-kind';
import { resolveToolPath } from '../paths';
import { defineTool, errorResult, okResult, type ToolErrorCode } from '../types';
import { TOOL } from '../names';

const input = z.strictObject({
  path: z.string().min(1).describe('PNG, JPEG, GIF or WebP path.'),
});

const CODE_OF: Record<ImageErrorCode, ToolErrorCode> = {
  too_large: 'too_large',
  not_image: 'invalid_arguments',
  corrupt: 'failed',
  unsupported: 'failed',
  not_found: 'not_found',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const viewImageTool = defineTool({
  name: TOOL.view_image,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: true },
  group: 'core',
  permission: 'read',
  deferred: false,
  summary: 'Look at an image file (PNG, JPEG, GIF, WebP) from the workspace.',
  description:
    'Attach an image file (screenshot, diagram, mockup) to the conversation; large ones are downscaled.',
  input,
  describeCall: (a) => `view ${a.path}`,
  approval: (a) => ({ paths: [{ path: a.path, write: false }] }),
  async run(args, ctx) {
    const store = ctx.attachments;
    if (!store) return errorResult('unavailable', 'images cannot be attached in this session (no attachment store)');
    if (!store.supportsImages) {
      return errorResult(
        'vision_unsupported',
        `the model ${ctx.settings['model.name']} does not accept images, so view_image cannot show ${args.path}. ` +
          'If the model does take images, set snowpea.model.supportsImages to true.',
      );
    }
    const r = resolveToolPath(ctx.workspaceRoot, args.path);
    if (!r.exists) return notFoundResult(ctx.workspaceRoot, r);
    const st = fs.statSync(r.real);
    if (st.isDirectory()) return errorResult('invalid_arguments', `${r.display} is a folder, not an image; use list_dir or glob to find the file.`);
    const special = notRegularFileMessage(r.display, st);
    if (special) return errorResult('invalid_arguments', special);
    try {
      const ref = await store.addFile(r.real, { name: r.display, source: 'view_image', signal: ctx.signal });
      return okResult(`image attached: ${ref.name}`, { images: [ref], realPath: r.real });
    } catch (e) {
      if (e instanceof ImageError) return errorResult(CODE_OF[e.code], e.message);
      throw e;
    }
  },
});
