import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ImageRef } from '../../../extension/core/conversation/messages';
import { BrowserManager, type BrowserManagerOptions } from '../../../extension/core/browser/browser-manager';
import type { Resolver } from '../../../extension/core/browser/url-policy';
import { limitsFromSettings } from '../../../extension/core/images/limits';
import { AttachmentStore } from '../../../extension/core/images/store';
import { defaultSettings, type Settings } from '../../../extension/core/settings/schema';
import { createBrowserTools } from '../../../extension/core/tools/browser/index';
import { createDiskFileReader } from '../../../extension/core/tools/disk-reader';
import { ToolRegistry } from '../../../extension/core/tools/registry';
import type { ToolAttachments, ToolContext, ToolResult } from '../../../extension/core/tools/types';

export const CHROMIUM = '/usr/bin/chromium';

/** Answers per name in order (the last one repeats); everything it was asked is recorded. */
export function scriptedResolver(answers: Record<string, string[][]>): Resolver & { asked: string[] } {
  const asked: string[] = [];
  const r = (async (host: string) => {
    asked.push(host);
    const list = answers[host];
    if (!list) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    const n = asked.filter((h) => h === host).length;
    return list[Math.min(n, list.length) - 1];
  }) as Resolver & { asked: string[] };
  r.asked = asked;
  return r;
}

/** Opens connections for the proxy, recording each; only loopback is ever really contacted here. */
export function recordingConnect(contacted: string[]): BrowserManagerOptions['connect'] {
  return (address, port) => {
    contacted.push(`${address}:${port}`);
    if (!address.startsWith('127.') && address !== '::1') throw new Error(`the test tried to contact ${address}`);
    return net.connect({ host: address, port });
  };
}

export interface Screens {
  attachments: ToolAttachments;
  /** The bytes each screenshot handed to the store. */
  shots: Uint8Array[];
  refs: ImageRef[];
}

/** The real attachment store in a temp folder, recording what it is given. */
export function recordingAttachments(supportsImages = true): Screens {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sp-browser-att-'));
  const store = new AttachmentStore({ dir, limits: () => limitsFromSettings(defaultSettings()) });
  const shots: Uint8Array[] = [];
  const refs: ImageRef[] = [];
  return {
    shots,
    refs,
    attachments: {
      supportsImages,
      addFile: (p, o) => store.addFile(p, o),
      addBase64: (d, o) => store.addBase64(d, o),
      async addBytes(bytes, o) {
        shots.push(bytes);
        const ref = await store.addBytes(bytes, o);
        refs.push(ref);
        return ref;
      },
    },
  };
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(b: Uint8Array): { width: number; height: number } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((x, i) => b[i] === x)) throw new Error('not a PNG');
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  return { width: dv.getUint32(16), height: dv.getUint32(20) };
}

export interface BrowserCtxOptions {
  session?: string;
  settings?: Partial<Settings>;
  userTexts?: string[];
  attachments?: ToolAttachments;
}

export function browserCtx(o: BrowserCtxOptions = {}): ToolContext {
  return {
    workspaceRoot: os.tmpdir(),
    fileReader: createDiskFileReader(),
    approver: { approve: async () => 'allow' },
    signal: new AbortController().signal,
    settings: { ...defaultSettings(), 'browser.executablePath': CHROMIUM, ...o.settings },
    session: { id: o.session ?? 's1', mode: 'code', role: 'general', isSubagent: false },
    scratchDir: os.tmpdir(),
    userTexts: o.userTexts ? () => o.userTexts! : undefined,
    attachments: o.attachments,
  };
}

export interface Driver {
  manager: BrowserManager;
  registry: ToolRegistry;
  call(name: string, args: unknown, ctx?: ToolContext): Promise<ToolResult>;
}

export function browserDriver(opts: BrowserManagerOptions, defaultCtx: () => ToolContext): Driver {
  const manager = new BrowserManager({ keepBrowserOpen: true, elementWaitMs: 1500, ...opts });
  const registry = new ToolRegistry(createBrowserTools(manager));
  return {
    manager,
    registry,
    call: (name, args, ctx = defaultCtx()) => registry.invoke(name, JSON.stringify(args), ctx),
  };
}
