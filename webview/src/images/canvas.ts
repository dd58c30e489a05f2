/**
 * Drawing and encoding with the browser's own decoder and canvas. OffscreenCanvas where the
 * page has it, a detached <canvas> otherwise. No workers: the webview's CSP allows none.
 */

export type AnyCanvas = OffscreenCanvas | HTMLCanvasElement;
type Context2D = OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;

function makeCanvas(width: number, height: number): AnyCanvas {
  if (typeof OffscreenCanvas === 'function') return new OffscreenCanvas(width, height);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

function context(canvas: AnyCanvas): Context2D {
  const ctx = canvas.getContext('2d', { willReadFrequently: true }) as Context2D | null;
  if (!ctx) throw new Error('no 2D canvas context');
  return ctx;
}

/** Draws `bitmap` scaled to width x height with high-quality smoothing. */
export function drawScaled(bitmap: ImageBitmap, width: number, height: number): AnyCanvas {
  const canvas = makeCanvas(width, height);
  const ctx = context(canvas);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(bitmap, 0, 0, width, height);
  return canvas;
}

/** True when any pixel is not fully opaque. */
export function hasTransparency(canvas: AnyCanvas): boolean {
  const { data } = context(canvas).getImageData(0, 0, canvas.width, canvas.height);
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return true;
  return false;
}

export function encodeCanvas(canvas: AnyCanvas, type: string, quality?: number): Promise<Blob> {
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type, ...(quality !== undefined ? { quality } : {}) });
  return new Promise((resolve, reject) =>
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error(`could not encode ${type}`))), type, quality),
  );
}

/** The bytes of `blob` as base64, without a data: prefix. */
export function blobToBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('could not read the image'));
    reader.readAsDataURL(blob);
  });
}
