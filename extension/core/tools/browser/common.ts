/**
 * What every browser tool shares: the session's browser from the context, the URL-policy inputs,
 * refusals as policy_blocked, error codes for Playwright failures, and the `Console errors:`
 * block each result ends with.
 */
import type { Locator, Page } from 'playwright-core';
import type { BrowserManager } from '../../browser/browser-manager';
import type { BrowserSession } from '../../browser/browser-session';
import { consoleBlock } from '../../browser/console-log';
import type { DocumentBlock } from '../../browser/block-log';
import { BrowserUnavailableError, type LaunchSettings } from '../../browser/launcher';
import type { ConsentContext } from '../../browser/origin-consent';
import { PlaywrightMissingError } from '../../browser/playwright-loader';
import type { PolicyOptions } from '../../browser/url-policy';
import { remember } from '../policy/authorize';
import { approvalDecision, settle } from '../policy/decide';
import { consentFacts } from '../policy/facts';
import { errorResult, type ToolContext, type ToolResult } from '../types';

export function policyOf(ctx: ToolContext): PolicyOptions {
  return { privateNetwork: ctx.settings['browser.privateNetwork'], typedTexts: ctx.userTexts?.() ?? [] };
}

export function launchOf(ctx: ToolContext): LaunchSettings {
  return {
    executablePath: ctx.settings['browser.executablePath'],
    headless: ctx.settings['browser.headless'],
    cdpUrl: ctx.settings['browser.cdpUrl'],
  };
}

/**
 * The browser's mid-call question (may it open this origin?) judged by the policy's approval gate,
 * as any network call: autoApprove (never a workspace value), an earlier "always" for the tool, or
 * --yes agree; otherwise the approver asks and the answer is settled and remembered as for a call.
 */
export function consentOf(ctx: ToolContext, tool: string): ConsentContext {
  return {
    tool,
    autoApproved: approvalDecision(consentFacts(tool, '', ctx)).kind === 'allow',
    typedTexts: ctx.userTexts?.() ?? [],
    ask: async (summary) => {
      const decision = approvalDecision(consentFacts(tool, summary, ctx));
      if (decision.kind !== 'ask') return decision.kind === 'allow';
      const reply = await ctx.approver.approve(decision.request, ctx.signal);
      if (ctx.signal.aborted) return false;
      const outcome = settle(decision.request, typeof reply === 'string' ? reply : reply.decision);
      if (outcome.remember) remember(decision.request, ctx);
      return outcome.run;
    },
  };
}

/** Appends the console errors, warnings and exceptions not reported yet. */
export function withConsole(r: ToolResult, s: BrowserSession | undefined): ToolResult {
  const block = s ? consoleBlock(s.console) : '';
  return block ? { ...r, content: r.content + block } : r;
}

/** The result for a page's own document that did not go through. */
function blockResult(b: DocumentBlock, what: string, at: string): ToolResult {
  if (b.kind === 'declined') return errorResult('denied', `${what}: ${b.reason} (${b.url}). The page is at ${at}.`);
  if (b.kind === 'unreachable') return errorResult('failed', `${what} failed: ${b.reason}, so ${b.url} did not load. The page is at ${at}.`);
  return errorResult('policy_blocked', `${what} led to ${b.url}, which was not opened: ${b.reason}. The page is at ${at}.`);
}

/**
 * The outcome when a page's own document (a navigation, redirect, popup) of action `action` was
 * refused by the URL policy (policy_blocked), declined by the user (denied) or could not be reached
 * (failed); the page is taken back to where it was first.
 */
export async function refusalSince(s: BrowserSession, action: number, what: string): Promise<ToolResult | undefined> {
  const b = s.blocks.during(action).find((x) => x.mainFrame);
  if (!b) return undefined;
  await s.leaveRefusedPage(b.url);
  return blockResult(b, what, s.currentUrl());
}

/** One line per frame the policy kept out of the page during `action`. */
function frameNotes(s: BrowserSession, action: number): string {
  const frames = s.blocks.during(action).filter((x) => !x.mainFrame);
  return frames.map((f) => `\nA frame of this page was not loaded (policy_blocked): ${f.url}: ${f.reason}`).join('');
}

/**
 * What the page tried between tool calls (a late script or timer navigation): the page is taken
 * back from the error page first; reported once, and not as this call's outcome.
 */
async function betweenNotes(s: BrowserSession): Promise<string> {
  const idle = s.blocks.takeBetweenActions();
  if (idle.length) await s.settle();
  for (const b of idle) await s.leaveRefusedPage(b.url);
  return idle.map((b) => `\nBetween tool calls the page tried to open ${b.url}; it was not opened: ${b.reason}.`).join('');
}

function errorText(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n')[0].replace(/^\w+\.\w+: /, '');
}

/** Maps a thrown error to a result: timeouts, missing browser, and everything else as `failed`. */
export function failure(e: unknown, doing: string): ToolResult {
  if (e instanceof BrowserUnavailableError || e instanceof PlaywrightMissingError) return errorResult('unavailable', e.message);
  if (e instanceof Error && e.name === 'TimeoutError') return errorResult('timeout', `${doing} timed out: ${errorText(e)}`);
  if (e instanceof Error && /not a valid selector|Unexpected token|Unknown engine/i.test(e.message)) {
    return errorResult('invalid_arguments', `${doing} failed: the selector is not valid CSS (${errorText(e)}); give a CSS selector such as #id, .class or button[type="submit"]`);
  }
  return errorResult('failed', `${doing} failed: ${errorText(e)}`);
}

export const STARTING_BROWSER = 'starting the browser for this session…';

const NO_PAGE = 'no page is open in this session yet; call browser_navigate with a url first';

export interface PageActionOptions {
  /** Start the session's browser when it has none (browser_navigate); other tools need an open page. */
  create: boolean;
  /** Words for errors ("clicking #buy"). */
  doing: string;
  /** The tool's name, for approvals of navigations to new origins. */
  tool: string;
}

/**
 * Runs an action on the session's page. A navigation to an origin the user has not agreed to asks
 * them; refusals of the URL policy during the action become policy_blocked, declined navigations
 * denied; the result ends with the console block either way.
 */
export async function onSessionPage(
  m: BrowserManager,
  ctx: ToolContext,
  o: PageActionOptions,
  action: (s: BrowserSession, actionId: number) => Promise<ToolResult>,
): Promise<ToolResult> {
  let s: BrowserSession | undefined;
  try {
    // The running tool card shows this while the browser starts (seconds on a cold start); Stop cancels the call.
    if (o.create && !m.has(ctx.session.id)) ctx.onOutput?.(`${STARTING_BROWSER}\n`);
    s = o.create ? await m.session({ id: ctx.session.id, launch: launchOf(ctx), policy: policyOf(ctx) }) : await m.existing(ctx.session.id);
  } catch (e) {
    return failure(e, 'starting the browser');
  }
  if (!s) return errorResult('failed', NO_PAGE);
  const session = s;
  session.policy = policyOf(ctx);
  return session.action(consentOf(ctx, o.tool), async (id) => {
    const earlier = await betweenNotes(session).catch(() => '');
    let r: ToolResult;
    try {
      r = await action(session, id);
    } catch (e) {
      await session.settle().catch(() => undefined);
      r = (await refusalSince(session, id, o.doing.replace(/^\w/, (c) => c.toUpperCase()))) ?? failure(e, o.doing);
    }
    if (r.ok) r = { ...r, content: r.content + frameNotes(session, id) + session.crossSite.take(id) };
    r = { ...r, content: r.content + earlier };
    return withConsole(r, session);
  });
}

/** The first element matching the selector, waiting up to `timeoutMs` for it to appear; undefined when none does. */
export async function findElement(page: Page, selector: string, timeoutMs: number): Promise<Locator | undefined> {
  const el = page.locator(selector).first();
  await el.waitFor({ state: 'attached', timeout: timeoutMs }).catch((e: Error) => {
    if (e.name !== 'TimeoutError') throw e;
  });
  return (await el.count()) > 0 ? el : undefined;
}

export function notFound(selector: string): ToolResult {
  return errorResult('not_found', `no element on the page matches ${selector}; call browser_snapshot to see the page's elements and their selectors`);
}
