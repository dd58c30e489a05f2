import type { ToolItem } from '../../state/types';

/**
 * What the model got instead of a plain result, so the card can say so: a pruned stub (an
 * older round's output replaced in later requests, as the host's meter reports; the stored
 * result never shows it), a repeat-guard stub (unchanged content, same result), or a
 * repeat-guard refusal.
 */
export type ResultState = 'pruned' | 'stub' | 'refused';

interface StateRule {
  state: ResultState;
  matches(text: string, item: ToolItem): boolean;
  label: string;
  explain: string;
}

const rules: StateRule[] = [
  {
    state: 'refused',
    matches: (_t, item) => item.errorCode === 'repeat_blocked',
    label: 'refused',
    explain: 'The repeat guard refused this call: the same call ran too often.',
  },
  {
    state: 'pruned',
    matches: (_t, item) => item.prunedStub !== undefined,
    label: 'pruned',
    explain: 'This output was pruned from later requests: the model now sees only the stub. Snowpea keeps every byte.',
  },
  {
    state: 'stub',
    matches: (t) => t.startsWith('unchanged since') || t.startsWith('same result as'),
    label: 'stub',
    explain: 'The repeat guard answered with a short stub: the model already has this content.',
  },
];

/** Looks at the result the model saw and at the summary line (a live card may have only the summary). */
export function resultState(item: ToolItem): StateRule | undefined {
  const texts = [item.result, item.summary].filter((t): t is string => t !== undefined).map((t) => t.trimStart());
  if (!texts.length) texts.push('');
  return rules.find((r) => texts.some((t) => r.matches(t, item)));
}
