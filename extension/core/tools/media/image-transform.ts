/**
 * media_image_transform: crop, rotate, resize and convert a workspace image locally with jimp
 * (no endpoint). Steps run in that order; the result is saved as a new file and attached.
 * Decoding happens on this thread, so inputs are bounded (images.maxFileBytes, 40 MP).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Jimp as JimpClass } from 'jimp';
import { TOOL } from '../names';

/** jimp is loaded on first use (a 1.5 MB bundle), never at activation. */
async function loadJimp(): Promise<typeof JimpClass> {
  // A plain require: from dist/ it resolves to dist/node_modules/jimp (esbuild leaves it external).
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- see above: resolved from dist/node_modules at run time
  return (require('jimp') as typeof import('jimp')).Jimp;
}
import { z } from 'zod';
import { readImageHeader } from '../../images/header';
import { defineTool, errorResult, okResult } from '../types';
import { attachSaved, besidePath, derivedFileApproval, inputFile, isResult, saveOutput } from './media-files';

const MAX_PIXELS = 40_000_000;
const FORMATS = { png: 'image/png', jpeg: 'image/jpeg', bmp: 'image/bmp', gif: 'image/gif', tiff: 'image/tiff' } as const;
type Format = keyof typeof FORMATS;
const EXT: Record<Format, string> = { png: '.png', jpeg: '.jpg', bmp: '.bmp', gif: '.gif', tiff: '.tiff' };
const FORMAT_OF_EXT: Record<string, Format> = { '.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg', '.bmp': 'bmp', '.gif': 'gif', '.tif': 'tiff', '.tiff': 'tiff' };

const px = z.number().int().min(1).max(20_000);
const input = z.strictObject({
  path: z.string().min(1).describe('The image to transform (PNG, JPEG, BMP, GIF, TIFF), relative to the workspace.'),
  resize: z
    .strictObject({ width: px.optional(), height: px.optional() })
    .refine((r) => r.width !== undefined || r.height !== undefined, 'give width, height or both')
    .optional()
    .describe('New size in pixels; with only one side the aspect ratio is kept.'),
  crop: z
    .strictObject({ x: z.number().int().min(0), y: z.number().int().min(0), width: px, height: px })
    .optional()
    .describe('Keep only this rectangle (pixels from the top-left corner of the input).'),
  rotate: z.number().min(-360).max(360).optional().describe('Degrees clockwise (90, 180, 270, or any angle; the canvas grows to fit).'),
  format: z.enum(['png', 'jpeg', 'bmp', 'gif', 'tiff']).optional().describe('Output format (default: the output path\'s extension, else the input\'s format).'),
  output: z.string().min(1).optional().describe('Where to save the result (default: beside the input as <name>-transformed.<ext>).'),
});
type Args = z.infer<typeof input>;

function formatFor(a: Args): Format {
  if (a.format) return a.format;
  const fromOut = a.output ? FORMAT_OF_EXT[path.extname(a.output).toLowerCase()] : undefined;
  return fromOut ?? FORMAT_OF_EXT[path.extname(a.path).toLowerCase()] ?? 'png';
}

const target = (root: string, a: Args) => a.output ?? besidePath(root, a.path, 'transformed', EXT[formatFor(a)]);

function describe(a: Args): string {
  const steps = [
    a.crop && `crop ${a.crop.width}x${a.crop.height}+${a.crop.x}+${a.crop.y}`,
    a.rotate && `rotate ${a.rotate}°`,
    a.resize && `resize ${a.resize.width ?? 'auto'}x${a.resize.height ?? 'auto'}`,
    a.format && `as ${a.format}`,
  ].filter(Boolean);
  return steps.join(', ') || 'copy';
}

export const mediaImageTransformTool = defineTool({
  name: TOOL.media_image_transform,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: true },
  group: 'media',
  permission: 'write',
  deferred: true,
  summary: 'Crop, rotate, resize or convert an image locally and save the result.',
  description: 'Crop, rotate (clockwise), resize and/or convert an image from the workspace locally (no network). Steps run in that order; the result is saved as a new file and attached.',
  input,
  describeCall: (a) => `transform ${a.path}: ${describe(a)}`,
  approval: (a, ctx) => {
    const out = target(ctx.workspaceRoot, a);
    return derivedFileApproval(`${describe(a)} ${a.path} into ${out}`, a.path, out);
  },
  async run(a, ctx) {
    const src = inputFile(ctx, a.path);
    if (isResult(src)) return src;
    const size = fs.statSync(src.real).size;
    if (size > ctx.settings['images.maxFileBytes']) return errorResult('too_large', `${src.display} is ${size} bytes, over images.maxFileBytes (${ctx.settings['images.maxFileBytes']})`);
    const bytes = await fs.promises.readFile(src.real);
    let header: ReturnType<typeof readImageHeader>;
    try {
      header = readImageHeader(bytes);
    } catch (e) {
      return errorResult('failed', `${src.display} is damaged: ${(e as Error).message}`);
    }
    if (header?.format === 'webp') return errorResult('failed', `${src.display} is WebP, which media_image_transform cannot decode; use PNG, JPEG, BMP, GIF or TIFF`);
    if (header && header.width * header.height > MAX_PIXELS) return errorResult('too_large', `${src.display} is ${header.width}x${header.height}; media_image_transform handles at most ${MAX_PIXELS / 1e6} megapixels`);
    let img: Awaited<ReturnType<typeof JimpClass.fromBuffer>>;
    try {
      img = await (await loadJimp()).fromBuffer(bytes);
    } catch (e) {
      return errorResult('failed', `${src.display} could not be decoded as an image (${(e as Error).message})`);
    }
    const { width: w0, height: h0 } = img.bitmap;
    if (a.crop) {
      const c = a.crop;
      if (c.x + c.width > w0 || c.y + c.height > h0) {
        return errorResult('invalid_arguments', `the crop ${c.width}x${c.height} at (${c.x},${c.y}) does not fit inside the ${w0}x${h0} image`);
      }
      img.crop({ x: c.x, y: c.y, w: c.width, h: c.height });
    }
    // jimp turns counter-clockwise; the tool's degrees are clockwise.
    if (a.rotate && a.rotate % 360 !== 0) img.rotate(-a.rotate);
    if (a.resize) {
      const { width, height } = a.resize;
      if (width !== undefined && height !== undefined) img.resize({ w: width, h: height });
      else if (width !== undefined) img.resize({ w: width });
      else img.resize({ h: height! });
    }
    const format = formatFor(a);
    const out = await img.getBuffer(FORMATS[format]);
    const saved = await saveOutput(ctx, target(ctx.workspaceRoot, a), new Uint8Array(out));
    if (isResult(saved)) return saved;
    const { images, note } = await attachSaved(ctx, saved, 'media_image_transform');
    return okResult(`saved ${saved.display} (${img.bitmap.width}x${img.bitmap.height} ${format}, from ${w0}x${h0}; ${describe(a)})${note}`, { images, writtenPaths: [saved.real] });
  },
});
