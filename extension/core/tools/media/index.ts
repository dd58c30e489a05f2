import type { AnyTool } from '../types';
import { mediaImageEditTool } from './image-edit';
import { mediaImageGenerateTool } from './image-generate';
import { mediaImageTransformTool } from './image-transform';
import { mediaSpeechTool } from './speech';
import { mediaTranscribeTool } from './transcribe';

/** The deferred `media` group (5 tools: docs/design.md, Deferred tools). */
export const mediaTools: AnyTool[] = [mediaImageGenerateTool, mediaImageEditTool, mediaImageTransformTool, mediaSpeechTool, mediaTranscribeTool] as AnyTool[];
