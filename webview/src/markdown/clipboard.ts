/**
 * Copies text: the async Clipboard API first, then the old selection + execCommand('copy')
 * way for hosts where the API is missing or refuses (no focus, no permission).
 */
export async function copyText(text: string, doc: Document = document): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) throw new Error('no Clipboard API');
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return copyWithSelection(text, doc);
  }
}

function copyWithSelection(text: string, doc: Document): boolean {
  const area = doc.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  const active = doc.activeElement as HTMLElement | null;
  doc.body.appendChild(area);
  area.select();
  try {
    return doc.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
    active?.focus();
  }
}
