/** Decoding file bytes for the model: UTF-8 (BOM dropped), UTF-16 with a BOM, latin1 as the fallback; binary detection. */

export interface DecodedText {
  text: string;
  /** Set when the bytes were not UTF-8 and another decoding was used. */
  encodingNote?: string;
}

const SNIFF_BYTES = 8192;

/** Binary when the first 8 KB hold a NUL byte (and no UTF-16 BOM), or mostly control bytes. */
export function looksBinary(bytes: Uint8Array): boolean {
  if (hasUtf16Bom(bytes)) return false;
  const n = Math.min(bytes.length, SNIFF_BYTES);
  let control = 0;
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b === 0) return true;
    if (b < 7 || (b > 13 && b < 32 && b !== 27)) control++;
  }
  return n > 0 && control / n > 0.3;
}

function hasUtf16Bom(b: Uint8Array): boolean {
  return b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff));
}

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encodingNote: 'decoded as UTF-16LE' };
  }
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encodingNote: 'decoded as UTF-16BE' };
  }
  try {
    // TextDecoder drops a UTF-8 BOM by default.
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
  } catch {
    return { text: new TextDecoder('latin1').decode(bytes), encodingNote: 'not valid UTF-8; decoded as Latin-1 (windows-1252)' };
  }
}

/** Lines of a text; a final newline does not start another line. CRLF and CR are line breaks too. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n|\n|\r/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export function countLines(text: string): number {
  return splitLines(text).length;
}

/** `   12\tcode`: the line-number prefix read_file and edit_file use. */
export function numbered(lineNo: number, text: string): string {
  return `${String(lineNo).padStart(5)}\t${text}`;
}
