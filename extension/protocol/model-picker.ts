import { z } from 'zod';
import { EFFORTS } from '../core/model/model-choice';

/**
 * The composer's model picker and effort control (core/model/model-choice.ts holds the rules):
 * what the header says of them, what the webview asks, and the models the host lists.
 */
export { EFFORTS, modelNameSchema } from '../core/model/model-choice';

export const effortSchema = z.enum(EFFORTS);

/** Most model ids one `models.result` carries (OpenRouter lists a few hundred). */
export const MAX_LISTED_MODELS = 2000;

/** The effort control of the session's model (core's EffortInfo); absent from the header: the model has none. */
export const effortInfoSchema = z.object({
  control: z.enum(['effort', 'thinking']),
  picked: effortSchema.nullable(),
  defaultLabel: z.string().max(100),
  defaultMeans: z.string().max(500),
});

export const modelsResultSchema = z.object({
  type: z.literal('models.result'),
  /** The provider's model ids, sorted (empty when it could not be asked). */
  models: z.array(z.string().max(500)).max(MAX_LISTED_MODELS),
  /** Why the provider listed none: the picker says so and still takes a typed name. */
  error: z.string().max(2000).optional(),
});

export type Effort = z.infer<typeof effortSchema>;
export type EffortInfoMessage = z.infer<typeof effortInfoSchema>;
