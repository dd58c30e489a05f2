import { z } from 'zod';

/** Messages the webview posts to the extension host. */

/** Largest image the composer accepts (decoded bytes). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Base64 length of an image of MAX_IMAGE_BYTES. */
export const MAX_IMAGE_BASE64_CHARS = Math.ceil(MAX_IMAGE_BYTES / 3) * 4;
export const MAX_IMAGES_PER_MESSAGE = 20;
export const MAX_SEND_TEXT_CHARS = 1_000_000;

export const approvalDecisions = ['allow', 'allowAlways', 'deny'] as const;

export const outgoingImageSchema = z.object({
  name: z.string().min(1).max(512),
  mime: z.string().regex(/^image\/[a-z0-9.+-]+$/i, 'must be an image/* MIME type'),
  dataBase64: z
    .string()
    .min(1)
    .max(MAX_IMAGE_BASE64_CHARS, 'image is larger than 20 MB')
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'must be base64 without a data: prefix'),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});

export const webviewMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z
    .object({
      type: z.literal('send'),
      text: z.string().max(MAX_SEND_TEXT_CHARS),
      images: z.array(outgoingImageSchema).max(MAX_IMAGES_PER_MESSAGE).optional(),
    })
    .refine((m) => m.text.trim().length > 0 || (m.images?.length ?? 0) > 0, { message: 'send needs text or an image' }),
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('newChat') }),
  z.object({ type: z.literal('approval.reply'), id: z.string(), decision: z.enum(approvalDecisions) }),
  z.object({ type: z.literal('ask.reply'), id: z.string(), answer: z.string() }),
]);

export type WebviewMessage = z.infer<typeof webviewMessageSchema>;
export type WebviewMessageType = WebviewMessage['type'];
export type OutgoingImage = z.infer<typeof outgoingImageSchema>;
export type ApprovalDecision = (typeof approvalDecisions)[number];
