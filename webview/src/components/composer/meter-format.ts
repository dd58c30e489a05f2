import type { NextCost, RoundMeter } from '../../state/types';

/** `812`, `12.4k`, `1.2M` */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/** `$0.0042`, `$0.12`, `$3.40` */
export function formatUsd(n: number): string {
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(n < 1 ? 3 : 2)}`;
}

export function cachedPercent(m: RoundMeter): number {
  return m.promptTokens > 0 ? Math.round((m.cachedTokens / m.promptTokens) * 100) : 0;
}

/** `n` as a whole percentage of the context window. */
function windowPercent(n: number, window: number): number {
  return Math.round((n / window) * 100);
}

/**
 * The compact parts of one round's meter, in display order; absent savings are left out. With
 * the window known, how full the request made it (the tokens are in the details) and the fill at
 * which a request compacts the conversation first.
 */
export function meterParts(m: RoundMeter): string[] {
  const cost = meterCost(m);
  return [...(cost ? [cost] : []), ...meterFill(m)];
}

/** The round's and the session's estimated cost, `~$0.0043 (session $0.041)`; '' when the prices are unknown. It leads the meter: at a narrow width it is what stays. */
export function meterCost(m: RoundMeter): string {
  return m.cost ? `~${formatUsd(m.cost.round)} (session ${formatUsd(m.cost.session)})` : '';
}

/** The meter's parts after the cost: how full the window is, caching, what pruning and deferral left out. */
export function meterFill(m: RoundMeter): string[] {
  const approx = m.estimated ? '~' : '';
  const parts = m.contextWindow
    ? [`${approx}${windowPercent(m.promptTokens, m.contextWindow)}% of ${formatTokens(m.contextWindow)}`]
    : [`${approx}${formatTokens(m.promptTokens)} in`];
  if (m.contextWindow && m.compactAtTokens) parts.push(`compacts at ${windowPercent(m.compactAtTokens, m.contextWindow)}%`);
  parts.push(`${cachedPercent(m)}% cached`);
  if (m.prunedChars) parts.push(`${formatTokens(m.prunedChars)} chars pruned`);
  if (m.deferredTools) parts.push(`${m.deferredTools} tools deferred`);
  return parts;
}

/** The tooltip of one round, every number spelled out (the meter's panel shows the same, a line each). */
export function meterDetails(m: RoundMeter): string {
  return meterDetailLines(m).join('; ');
}

/** Every number of one round spelled out, a line each: tokens, output, window fill, savings, cost split. */
export function meterDetailLines(m: RoundMeter): string[] {
  const lines = [
    `Round ${m.round}: ${m.promptTokens.toLocaleString('en-US')} input tokens, ${m.cachedTokens.toLocaleString('en-US')} from the cache (${cachedPercent(m)}%)`,
  ];
  if (m.estimated) lines[0] += ', counted with the model\'s tokenizer (the editor reports no usage; caching unknown)';
  if (m.completionTokens !== undefined) {
    const thinking = m.reasoningTokens ? ` (${m.reasoningTokens.toLocaleString('en-US')} of them reasoning)` : '';
    lines.push(`${m.completionTokens.toLocaleString('en-US')} output tokens${thinking}`);
  }
  if (m.contextWindow) {
    let fill = `${windowPercent(m.promptTokens, m.contextWindow)}% of the ${formatTokens(m.contextWindow)} context window`;
    if (m.compactAtTokens) fill += ` (a request over ~${formatTokens(m.compactAtTokens)} tokens, ${windowPercent(m.compactAtTokens, m.contextWindow)}%, compacts the conversation first)`;
    lines.push(fill);
  }
  if (m.prunedChars !== undefined) {
    const results = m.prunedResults !== undefined ? ` in ${m.prunedResults} older tool results` : '';
    lines.push(`pruning saved ${m.prunedChars.toLocaleString('en-US')} chars${results}`);
  }
  if (m.deferredTools !== undefined) {
    const tokens = m.deferredTokens !== undefined ? ` (~${formatTokens(m.deferredTokens)} tokens of schemas)` : '';
    lines.push(`${m.deferredTools} deferred tools not sent${tokens}`);
  }
  if (m.cost) {
    const c = m.cost;
    const saved = c.sessionEverything - c.session;
    lines.push(
      `estimated cost ${formatUsd(c.round)} this round (cached input ${formatUsd(c.cached)}, uncached input ${formatUsd(c.uncached)}, output ${formatUsd(c.output)}), ` +
        `${formatUsd(c.session)} this session; sending everything at the same prices, caching included, would have cost ${formatUsd(c.sessionEverything)} (saved ${formatUsd(Math.max(0, saved))})`,
    );
  }
  if (m.dropped?.length) lines.push(`the endpoint refused ${m.dropped.join(', ')}: requests there go without ${m.dropped.length === 1 ? 'it' : 'them'}`);
  return lines;
}

/** The next request's expected cost, told before it is sent: `next ~$0.0040 (80% cached)`. */
export function nextCostText(n: NextCost): string {
  const share = n.promptTokens > 0 ? Math.round((n.cachedTokens / n.promptTokens) * 100) : 0;
  return `next ~${formatUsd(n.cost)} (${share}% cached)`;
}

/**
 * The expectation of a request spelled out, and (once its round is measured) what it came to;
 * then what the turn and the session have spent against their budgets.
 */
export function nextCostLines(n: NextCost, measured?: RoundMeter): string[] {
  const share = n.promptTokens > 0 ? Math.round((n.cachedTokens / n.promptTokens) * 100) : 0;
  let expected = `Round ${n.round}, expected before sending: ~${formatUsd(n.cost)} for ~${n.promptTokens.toLocaleString('en-US')} input tokens, ~${n.cachedTokens.toLocaleString('en-US')} from the cache (${share}%), ~${n.outputTokens.toLocaleString('en-US')} output tokens`;
  if (measured?.cost) expected += `; it cost ${formatUsd(measured.cost.round)} with ${cachedPercent(measured)}% cached`;
  const spent = (scope: 'turn' | 'session') => {
    const b = n.budget[scope];
    return `this ${scope} ${formatUsd(b.spent)}${b.limit === null ? '' : ` of ${formatUsd(b.limit)}`}`;
  };
  const budgets = n.budget.turn.limit !== null || n.budget.session.limit !== null ? 'budget' : 'spent (no budget set)';
  return [expected, `${budgets}: ${spent('turn')}, ${spent('session')}`];
}
