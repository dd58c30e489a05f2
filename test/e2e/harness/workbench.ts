import type { Frame, Locator, Page } from 'playwright-core';

const DEFAULT_TIMEOUT_MS = 30_000;

/** Drives the VS Code workbench in a page: activity bar, command palette, views, webviews. */
export class Workbench {
  constructor(readonly page: Page) {}

  /** Waits for the workbench shell (activity bar and status bar) to render. */
  async waitUntilReady(timeoutMs: number): Promise<void> {
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: timeoutMs });
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** An activity-bar entry by its aria-label: a view container's title, maybe followed by " (keybinding)". */
  activityItem(label: string): Locator {
    const link = `.action-label[aria-label="${label}"], .action-label[aria-label^="${label} ("]`;
    return this.page.locator('.part.activitybar .action-item', { has: this.page.locator(link) });
  }

  /** Opens the Snowpea view container from the activity bar (does not toggle it closed if already open). */
  async openSnowpea(): Promise<void> {
    await this.waitForSnowpea();
    await this.showContainer('Snowpea');
  }

  /** Waits until the extension's contributions are in (its activity-bar entry appears some seconds after the shell). */
  async waitForSnowpea(timeoutMs = 60_000): Promise<void> {
    await this.activityItem('Snowpea').waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** Shows a view container (e.g. "Explorer") in the side bar through its activity-bar entry. */
  async showContainer(label: string): Promise<void> {
    const item = this.activityItem(label);
    await item.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
    if (!(await this.isActivityItemActive(label))) await item.click();
    await this.sidebarTitle(label).waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
  }

  /** Whether the activity-bar entry is the one shown in the side bar. */
  async isActivityItemActive(label: string): Promise<boolean> {
    const item = this.activityItem(label);
    const classes = (await item.getAttribute('class')) ?? '';
    return classes.split(/\s+/).includes('checked');
  }

  /** The side bar's title when it shows the given view container. */
  sidebarTitle(containerTitle: string): Locator {
    return this.page.locator('.part.sidebar .composite.title .title-label h2', { hasText: new RegExp(`^${containerTitle}$`, 'i') });
  }

  /** A view's pane in the side bar, found by the view's name in its header. */
  viewPane(viewName: string): Locator {
    return this.page.locator('.part.sidebar .pane', {
      has: this.page.locator('.pane-header .title', { hasText: new RegExp(`^${viewName}$`, 'i') }),
    });
  }

  /** Expands a view's pane if it is collapsed and returns it. */
  async expandView(viewName: string): Promise<Locator> {
    const pane = this.viewPane(viewName);
    const header = pane.locator('.pane-header');
    await header.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await pane.locator('.pane-header[aria-expanded="true"]').waitFor({ timeout: DEFAULT_TIMEOUT_MS });
    return pane;
  }

  /**
   * Expands a view's pane and collapses the other expanded panes of its side bar, so the view gets
   * the whole height (Snowpea's Tools view, contributed collapsed, opens short under the chat).
   */
  async expandViewAlone(viewName: string): Promise<Locator> {
    const pane = await this.expandView(viewName);
    const others = this.page.locator('.part.sidebar .pane .pane-header[aria-expanded="true"]').filter({ hasNot: this.page.locator('.title', { hasText: new RegExp(`^${escapeRegExp(viewName)}$`, 'i') }) });
    while ((await others.count()) > 0) {
      await others.first().click();
      await others.first().waitFor({ state: 'detached', timeout: 2_000 }).catch(() => undefined);
    }
    return pane;
  }

  /** The rows of a view's tree whose label (not description) matches `label` (a string matches exactly). */
  treeRow(viewName: string, label: string | RegExp): Locator {
    const name = typeof label === 'string' ? new RegExp(`^${escapeRegExp(label)}$`) : label;
    return this.viewPane(viewName).locator('.pane-body .monaco-list-row', {
      has: this.page.locator('.label-name', { hasText: name }),
    });
  }

  /**
   * Opens a tree row's context menu and runs one of its items. The workbench ignores a click that
   * lands too soon after the menu opens, so the click is repeated until the menu closes.
   */
  async runTreeRowMenuItem(viewName: string, label: string | RegExp, item: string): Promise<void> {
    await this.treeRow(viewName, label).first().click({ button: 'right' });
    const entry = this.contextMenuItem(item);
    await entry.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
    const deadline = Date.now() + DEFAULT_TIMEOUT_MS;
    while (await entry.isVisible()) {
      if (Date.now() > deadline) throw new Error(`the context menu item ${item} did not run`);
      await entry.click().catch(() => undefined);
      await entry.waitFor({ state: 'hidden', timeout: 500 }).catch(() => undefined);
    }
  }

  /** An item of the open context menu, by its label. */
  contextMenuItem(item: string): Locator {
    return this.page.locator('.context-view .monaco-menu .action-item .action-label', { hasText: new RegExp(`^${escapeRegExp(item)}$`) });
  }

  /** Collapses a tree row (a group) if it is expanded; the tree renders only the rows on screen. */
  async collapseTreeRow(viewName: string, label: string | RegExp): Promise<void> {
    await this.setTreeRowExpanded(viewName, label, false);
  }

  /** Expands a tree row (a group) if it is collapsed. */
  async expandTreeRow(viewName: string, label: string | RegExp): Promise<void> {
    await this.setTreeRowExpanded(viewName, label, true);
  }

  /**
   * Clicks the row's twistie until the row is expanded (or collapsed). A click that lands while the
   * tree re-renders (it refreshes when tools register or a turn ends) can be lost, so it is repeated.
   */
  private async setTreeRowExpanded(viewName: string, label: string | RegExp, expanded: boolean): Promise<void> {
    const row = this.treeRow(viewName, label).first();
    const done = this.treeRow(viewName, label).and(this.page.locator(`[aria-expanded="${expanded}"]`)).first();
    const deadline = Date.now() + DEFAULT_TIMEOUT_MS;
    await row.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
    while ((await row.getAttribute('aria-expanded').catch(() => null)) !== String(expanded)) {
      if (Date.now() > deadline) throw new Error(`the tree row ${label} did not become ${expanded ? 'expanded' : 'collapsed'}`);
      await row.locator('.monaco-tl-twistie').click().catch(() => undefined);
      await done.waitFor({ timeout: 3_000 }).catch(() => undefined);
    }
  }

  /** The description (the dimmer text after the label) of the first tree row matching `label`. */
  async treeRowDescription(viewName: string, label: string | RegExp): Promise<string> {
    const row = this.treeRow(viewName, label).first();
    await row.waitFor({ state: 'visible', timeout: DEFAULT_TIMEOUT_MS });
    const description = row.locator('.label-description');
    return (await description.count()) ? (await description.innerText()).trim() : '';
  }

  /**
   * The frame that holds `selector`: webview content lives two iframes deep, so this polls every
   * frame except the workbench's own (which has textareas of its own) until one matches.
   */
  async findWebviewFrame(selector: string, timeoutMs = 60_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const frame of this.page.frames()) {
        if (frame === this.page.mainFrame() || frame.isDetached()) continue;
        const found = await frame.$(selector).catch(() => null);
        if (found) return frame;
      }
      if (Date.now() > deadline) {
        const urls = this.page.frames().map((f) => f.url()).join('\n  ');
        throw new Error(`No webview frame holds ${selector} after ${timeoutMs / 1000} s. Frames:\n  ${urls}`);
      }
      await this.page.waitForTimeout(200); // polling interval, not a wait for an outcome
    }
  }

  /**
   * Like findWebviewFrame, but only a frame drawn over `part` (e.g. '.part.editor' or
   * '.part.sidebar'). Webviews are overlays positioned over their part, not inside its DOM, so the
   * frame's box is compared with the part's.
   */
  async findWebviewFrameOver(part: string, selector: string, timeoutMs = 60_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const area = await this.page.locator(part).boundingBox();
      for (const frame of this.page.frames()) {
        if (frame === this.page.mainFrame() || frame.isDetached() || !area) continue;
        if (!(await frame.$(selector).catch(() => null))) continue;
        const box = await (await frame.frameElement().catch(() => null))?.boundingBox();
        if (box && box.width > 0 && box.x >= area.x - 1 && box.y >= area.y - 1 && box.x + box.width <= area.x + area.width + 1 && box.y + box.height <= area.y + area.height + 1) return frame;
      }
      if (Date.now() > deadline) throw new Error(`No webview frame over ${part} holds ${selector} after ${timeoutMs / 1000} s`);
      await this.page.waitForTimeout(200); // polling interval, not a wait for an outcome
    }
  }

  /** Runs a command from the command palette by its title, e.g. "Snowpea: New Chat". */
  async runCommand(title: string): Promise<void> {
    await this.runCommandKeepingInput(title);
    await this.page.locator('.quick-input-widget .quick-input-box input').waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
  }

  /** Runs a palette command that opens a quick pick of its own (the quick input stays open for it). */
  async runCommandKeepingInput(title: string): Promise<void> {
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    const focusedRow = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row.focused');
    const row = focusedRow.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) });
    // A key pressed while a webview has focus reaches the workbench through the webview, and now
    // and then it is lost there; a webview taking focus (a view the last command revealed) closes
    // the palette again. So: open, type, and wait for the command's row, until that holds.
    const deadline = Date.now() + DEFAULT_TIMEOUT_MS;
    for (;;) {
      await this.page.keyboard.press('Control+Shift+P');
      const ready = await input
        .waitFor({ state: 'visible', timeout: 5_000 })
        .then(() => input.fill(`>${title}`, { timeout: 5_000 }))
        // Enter only once the list has filtered down to the command, or an older row would run.
        .then(() => row.waitFor({ timeout: 10_000 }))
        .then(() => true, () => false);
      if (ready) break;
      if (Date.now() > deadline) throw new Error(`the command palette did not open to run ${title}`);
      await this.page.keyboard.press('Escape');
    }
    await this.page.keyboard.press('Enter');
    // The palette's own list is gone once its row ran (a command's quick pick may reuse the widget).
    await row.waitFor({ state: 'hidden', timeout: DEFAULT_TIMEOUT_MS });
  }

  /** Notification toasts currently shown, as text. */
  async notificationTexts(): Promise<string[]> {
    return this.page.locator('.notification-toast').allInnerTexts();
  }

  /** Error-severity notification toasts currently shown, as text. */
  async errorNotificationTexts(): Promise<string[]> {
    return this.page.locator('.notification-toast:has(.codicon-error)').allInnerTexts();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
