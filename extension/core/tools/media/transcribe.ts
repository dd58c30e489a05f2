/** media_transcribe: an audio file from the workspace to text through the endpoint's transcription API. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { toFile } from 'openai';
import { z } from 'zod';
import { defineTool, errorResult, okResult } from '../types';
import { mediaClient, mediaError } from './media-client';
import { inputFile, isResult } from './media-files';
import { TOOL } from '../names';

/** The transcription APIs take files up to 25 MB. */
const MAX_BYTES = 25 * 1024 * 1024;

const input = z.strictObject({
  path: z.string().min(1).describe('The audio file (mp3, mp4, m4a, wav, webm, ogg, flac), relative to the workspace.'),
});

export const mediaTranscribeTool = defineTool({
  name: TOOL.media_transcribe,
  traits: { readOnly: true, repeat: 'plain', subagents: true, images: false },
  group: 'media',
  permission: 'network',
  deferred: true,
  summary: 'Transcribe an audio file to text (transcription API).',
  description: `Transcribe speech in an audio file from the workspace to text with the endpoint's transcription API (model from the setting media.transcribeModel). The file is uploaded to the endpoint.`,
  input,
  describeCall: (a) => `transcribe ${a.path}`,
  approval: (a) => ({ summary: `upload ${a.path} to the endpoint for transcription`, paths: [{ path: a.path, write: false }] }),
  async run(a, ctx) {
    const src = inputFile(ctx, a.path);
    if (isResult(src)) return src;
    const size = fs.statSync(src.real).size;
    if (size > MAX_BYTES) return errorResult('too_large', `${src.display} is ${Math.round(size / 1048576)} MB; the transcription API takes at most 25 MB (split or compress it first)`);
    let text: string;
    try {
      const client = await mediaClient(ctx);
      const file = await toFile(await fs.promises.readFile(src.real), path.basename(src.real));
      const res = await client.audio.transcriptions.create({ file, model: ctx.settings['media.transcribeModel'] }, { signal: ctx.signal });
      text = typeof res === 'string' ? res : res.text;
    } catch (e) {
      return mediaError(e, 'transcription API (POST /audio/transcriptions)', ctx);
    }
    return okResult(text.trim() ? `transcript of ${src.display}:\n${text.trim()}` : `no speech was recognized in ${src.display}`);
  },
});
