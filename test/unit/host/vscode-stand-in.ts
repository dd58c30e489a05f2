/**
 * A stand-in for the `vscode` module, for host code whose tests need only a little of it: no
 * open documents, error messages recorded. Importing this file first makes `require('vscode')`
 * return it (host modules are loaded as CommonJS under tsx).
 */
import Module from 'node:module';

export const shownErrors: string[] = [];

class Disposable {
  dispose(): void {}
}

export const vscodeStandIn = {
  workspace: { textDocuments: [] as unknown[], applyEdit: async () => true },
  window: {
    showErrorMessage: (message: string) => {
      shownErrors.push(message);
      return Promise.resolve(undefined);
    },
  },
  commands: { executeCommand: async () => undefined },
  EventEmitter: class extends Disposable {
    event = () => new Disposable();
    fire(): void {}
  },
  Disposable,
  WorkspaceEdit: class {
    replace(): void {}
  },
  Range: class {},
  Uri: { file: (fsPath: string) => ({ scheme: 'file', fsPath }) },
};

const loader = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const load = loader._load;
loader._load = function (this: unknown, request: string, ...rest: unknown[]) {
  return request === 'vscode' ? vscodeStandIn : load.call(this, request, ...rest);
};
