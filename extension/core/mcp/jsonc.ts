// The ESM build: the package's UMD entry hides its requires from esbuild, so the bundle would miss them.
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser/lib/esm/main.js';

/**
 * JSON with comments and trailing commas, read with VS Code's own `jsonc-parser` as VS Code reads
 * `.vscode/mcp.json`. A leading byte order mark is skipped. Throws a SyntaxError on the first error,
 * naming it with its line and column (1-based).
 */
export function parseJsonc(text: string): unknown {
  const body = text.replace(/^\uFEFF/, '');
  const errors: ParseError[] = [];
  const value = parse(body, errors, { allowTrailingComma: true, allowEmptyContent: false });
  if (errors.length === 0) return value;
  const { error, offset } = errors[0];
  const before = body.slice(0, offset).split('\n');
  const what = printParseErrorCode(error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  throw new SyntaxError(`${what} at line ${before.length}, column ${before[before.length - 1].length + 1}`);
}
