import type { ToolTraits } from '../tools/types';
import { createBuiltinTools } from '../tools/index';

/** How pruning treats a tool's results: its `prune` trait (ToolTraits), 'rounds' when it declares none. */
export type PruneRule = (toolName: string) => NonNullable<ToolTraits['prune']>;

let builtin: Map<string, NonNullable<ToolTraits['prune']>> | undefined;

/** The built-in tools' prune traits: the rule when the caller has no registry to ask (tests, the bench). */
export const builtinPruneRule: PruneRule = (toolName) => {
  builtin ??= new Map(createBuiltinTools().map((t) => [t.name, t.traits.prune ?? 'rounds']));
  return builtin.get(toolName) ?? 'rounds';
};

/** A registry's rule: each tool's own trait (an MCP tool declares none: 'rounds'). */
export function pruneRuleOf(traitsOf: (name: string) => Pick<ToolTraits, 'prune'> | undefined): PruneRule {
  return (toolName) => traitsOf(toolName)?.prune ?? 'rounds';
}
