/** A codicon (the font VS Code itself uses). Decorative: pair it with visible text or an aria-label. */
export function Icon({ name, spin = false, className }: { name: string; spin?: boolean; className?: string }) {
  const classes = ['codicon', `codicon-${name}`, spin ? 'codicon-modifier-spin' : '', className ?? ''].filter(Boolean).join(' ');
  return <span className={classes} aria-hidden="true" />;
}
