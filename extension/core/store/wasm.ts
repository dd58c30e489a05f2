/**
 * Finding and loading sql.js's WebAssembly. The bundles (dist/extension.js, dist/cli.js) have
 * sql-wasm.wasm copied beside them by esbuild.mjs; under tsx (tests, bench) the file is taken
 * from node_modules. The module is initialised once per wasm path and shared.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import initSqlJs from 'sql.js';
import type { SqlJsStatic } from 'sql.js';

const WASM_NAME = 'sql-wasm.wasm';

/** The wasm file to load: `override` when given, else beside this bundle, else sql.js's own copy. */
export function locateSqlWasm(override?: string): string {
  if (override) return override;
  const besideBundle = path.join(__dirname, WASM_NAME);
  if (fs.existsSync(besideBundle)) return besideBundle;
  try {
    return require.resolve('sql.js/dist/sql-wasm.wasm');
  } catch {
    throw new Error(`sql.js wasm not found: looked for ${besideBundle} and sql.js/dist/${WASM_NAME} in node_modules`);
  }
}

const loaded = new Map<string, Promise<SqlJsStatic>>();

/** Initialises sql.js from the located wasm (once per path). */
export function loadSqlJs(wasmPath?: string): Promise<SqlJsStatic> {
  const file = locateSqlWasm(wasmPath);
  let p = loaded.get(file);
  if (!p) {
    p = (async () => {
      const bytes = await fs.promises.readFile(file);
      const wasmBinary = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      return initSqlJs({ wasmBinary });
    })();
    p.catch(() => loaded.delete(file));
    loaded.set(file, p);
  }
  return p;
}
