import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { parseHostMessage, type AgentEventMessage, type HostMessage } from '../../../extension/protocol';
import type { PageOptions, WebviewServer } from './server';

/** Distributes Omit over a union (so each event keeps its own fields). */
type EventBody = AgentEventMessage extends infer E ? (E extends AgentEventMessage ? Omit<E, 'sessionId'> : never) : never;

export interface ConsoleLine {
  type: string;
  text: string;
}

export interface OpenOptions extends PageOptions {
  sessionId?: string;
  /** Install Playwright's fake clock at this time before the page loads. */
  clockAt?: Date;
}

/** One webview page in Chromium with the fake host: send it host messages, read what it posted. */
export class ChatPage {
  readonly console: ConsoleLine[] = [];
  readonly pageErrors: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    readonly sessionId: string,
  ) {
    page.on('console', (m) => this.console.push({ type: m.type(), text: m.text() }));
    page.on('pageerror', (e) => this.pageErrors.push(e.message));
  }

  static async open(browser: Browser, server: WebviewServer, options: OpenOptions = {}): Promise<ChatPage> {
    const context = await browser.newContext();
    const page = await context.newPage();
    // A controllable clock (Date, timers) from the first script on: tests move time instead of waiting.
    if (options.clockAt) await page.clock.install({ time: options.clockAt });
    const chat = new ChatPage(context, page, options.sessionId ?? 's1');
    await page.goto(server.pageUrl(options));
    await chat.waitForPosted('ready');
    return chat;
  }

  /** Delivers a host message exactly as VS Code does (a window message); it must be valid. */
  async host(msg: HostMessage): Promise<void> {
    const checked = parseHostMessage(msg);
    if (!checked.ok) throw new Error(`test bug: ${checked.error}`);
    await this.hostRaw(msg);
  }

  /** Delivers anything, valid or not. */
  async hostRaw(msg: unknown): Promise<void> {
    await this.page.evaluate((m) => (globalThis as any).__fakeHost.dispatch(m), msg);
  }

  /** Delivers agent events of this page's session, in order. */
  async events(...events: EventBody[]): Promise<void> {
    for (const e of events) await this.host({ type: 'event', event: { ...e, sessionId: this.sessionId } as AgentEventMessage });
  }

  async init(overrides: Partial<Extract<HostMessage, { type: 'init' }>> = {}): Promise<void> {
    await this.host({
      type: 'init',
      sessionId: this.sessionId,
      title: 'New chat',
      model: 'test-model',
      loadedTools: ['read_file', 'edit_file'],
      workspaceTrusted: true,
      setupNeeded: false,
      ...overrides,
    });
  }

  /** Everything the webview posted to the host so far. */
  posted(): Promise<Array<{ type: string } & Record<string, unknown>>> {
    return this.page.evaluate(() => (globalThis as any).__fakeHost.posted);
  }

  /** Waits until the webview has posted `count` messages of `type`; returns them. */
  async waitForPosted(type: string, count = 1): Promise<Array<Record<string, unknown>>> {
    await this.page.waitForFunction(
      ([t, n]) => (globalThis as any).__fakeHost.posted.filter((m: { type: string }) => m.type === t).length >= (n as number),
      [type, count] as const,
    );
    return (await this.posted()).filter((m) => m.type === type);
  }

  /** The UI state the webview saved with vscode.setState. */
  savedState(): Promise<any> {
    return this.page.evaluate(() => (globalThis as any).__fakeHost.state);
  }

  get composer(): Locator {
    return this.page.getByRole('textbox', { name: 'Message Snowpea' });
  }

  get sendButton(): Locator {
    return this.page.getByRole('button', { name: 'Send' });
  }

  get stopButton(): Locator {
    return this.page.getByRole('button', { name: 'Stop' });
  }

  /** Clicks into the composer and types at the caret, key by key. */
  async typeInComposer(text: string): Promise<void> {
    await this.composer.click();
    await this.page.keyboard.type(text);
  }

  items(kind: string): Locator {
    return this.page.locator(`.transcript [data-kind="${kind}"]`);
  }

  toolCard(callId: string): Locator {
    return this.page.locator(`.tool-card[data-call-id="${callId}"]`);
  }

  /** Console lines of one type, e.g. 'warning' or 'error'. */
  consoleOf(type: string): string[] {
    return this.console.filter((l) => l.type === type).map((l) => l.text);
  }

  close(): Promise<void> {
    return this.context.close();
  }
}
