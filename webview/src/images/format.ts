/** Human sizes for thumbnails and messages: `812 B`, `14.2 KB`, `23.4 MB` (1 KB = 1024 B). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const digits = value >= 100 || Number.isInteger(value) ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

/** `1280×720` */
export function formatDimensions(width: number, height: number): string {
  return `${width}×${height}`;
}

/** The text marker a model without vision gets instead of the picture (docs/design.md, Images). */
export function noVisionMarker(name: string, width: number, height: number): string {
  return `[image: ${name}, ${width}x${height}, not sent: model has no vision]`;
}
