/** media_speech: text to an audio file through the endpoint's speech API. */
import * as path from 'node:path';
import { z } from 'zod';
import { defineTool, errorResult, okResult } from '../types';
import { mediaClient, mediaError } from './media-client';
import { isResult, saveOutput } from './media-files';
import { TOOL } from '../names';

const FORMATS = ['mp3', 'wav', 'opus', 'aac', 'flac', 'pcm'] as const;
type Format = (typeof FORMATS)[number];

const input = z.strictObject({
  text: z.string().min(1).max(4096).describe('What to say (at most 4096 characters).'),
  voice: z.string().min(1).optional().describe('Voice name, e.g. alloy (default), ash, coral, echo, sage, shimmer, verse.'),
  path: z.string().min(1).describe('Where to save the audio in the workspace; the extension picks the format: .mp3, .wav, .opus, .aac, .flac or .pcm.'),
});

export const mediaSpeechTool = defineTool({
  name: TOOL.media_speech,
  traits: { readOnly: false, repeat: 'plain', subagents: true, images: false },
  group: 'media',
  permission: 'write',
  deferred: true,
  summary: 'Turn text into speech (speech API) and save the audio file.',
  description: `Turn text into spoken audio with the endpoint's speech API (model from the setting media.speechModel) and save it in the workspace.`,
  input,
  describeCall: (a) => `speech to ${a.path}`,
  approval: (a) => ({ summary: `synthesize speech into ${a.path}`, paths: [{ path: a.path, write: true }] }),
  async run(a, ctx) {
    const ext = path.extname(a.path).slice(1).toLowerCase();
    if (!FORMATS.includes(ext as Format)) {
      return errorResult('invalid_arguments', `the path must end in ${FORMATS.map((f) => `.${f}`).join(', ')} (it picks the audio format); got ${JSON.stringify(a.path)}`);
    }
    let bytes: Uint8Array;
    try {
      const client = await mediaClient(ctx);
      const res = await client.audio.speech.create({ model: ctx.settings['media.speechModel'], voice: a.voice ?? 'alloy', input: a.text, response_format: ext as Format }, { signal: ctx.signal });
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (e) {
      return mediaError(e, 'speech API (POST /audio/speech)', ctx);
    }
    if (!bytes.length) return errorResult('failed', 'the speech API answered with no audio');
    const saved = await saveOutput(ctx, a.path, bytes);
    if (isResult(saved)) return saved;
    return okResult(`saved ${saved.display} (${ext}, ${bytes.length} bytes, voice ${a.voice ?? 'alloy'})`, { writtenPaths: [saved.real] });
  },
});
