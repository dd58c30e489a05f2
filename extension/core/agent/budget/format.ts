/** Money as the meter and the budget write it: `$0.0042`, `$0.120`, `$3.40` (the price table's units). */
export function formatMoney(n: number): string {
  if (n === 0) return '$0';
  if (n < 0.01) return `$${n.toFixed(4)}`;
  return `$${n.toFixed(n < 1 ? 3 : 2)}`;
}
