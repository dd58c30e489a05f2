/** "1 round", "2 rounds": a number with its noun in the right form. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
