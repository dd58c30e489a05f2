/** `+N −M`: lines a change adds and removes, with a label a screen reader can say. */
export function LineCounts({ added, removed }: { added: number; removed: number }) {
  return (
    <span className="line-counts" data-kind="line-counts" aria-label={`${added} lines added, ${removed} removed`}>
      <span className="added">+{added}</span>
      <span className="removed">−{removed}</span>
    </span>
  );
}
