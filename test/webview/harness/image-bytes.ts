/** Reads what an encoded image says about itself, to check what the webview sent. */

export interface ImageHeader {
  format: 'png' | 'jpeg';
  width: number;
  height: number;
  /** PNG colour type 6 / 4: the image has an alpha channel. */
  alpha?: boolean;
}

export function readImageHeader(base64: string): ImageHeader {
  const b = Buffer.from(base64, 'base64');
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    const colourType = b[25] as number;
    return { format: 'png', width: b.readUInt32BE(16), height: b.readUInt32BE(20), alpha: colourType === 6 || colourType === 4 };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    // Walk the JPEG segments to the first start-of-frame marker (SOF0..SOF15 except DHT/JPG/DAC).
    let at = 2;
    while (at + 9 < b.length) {
      if (b[at] !== 0xff) throw new Error(`bad JPEG segment at ${at}`);
      const marker = b[at + 1] as number;
      const length = b.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { format: 'jpeg', height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
    throw new Error('JPEG without a frame header');
  }
  throw new Error(`not a PNG or JPEG: ${b.subarray(0, 8).toString('hex')}`);
}
