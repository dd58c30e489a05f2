import { codePointLabel, hasHidden, hiddenDescription, splitHidden } from '../../../extension/protocol/hidden-chars';
import './visible-text.css';

const keepLines = (c: string) => c === '\n' || c === '\t';

/**
 * Untrusted text (a command, a path, a reason) with every control, bidi and invisible character
 * shown as a marked chip, `<U+202E>`, as VS Code's editor highlights them (red-team N2): a
 * right-to-left isolate can no longer reorder what is read, nor a zero-width space hide. Line breaks
 * and tabs stay (the text sits in a <pre>). The list of characters is extension/protocol/hidden-chars.ts.
 */
export function VisibleText({ text }: { text: string }) {
  return (
    <>
      {splitHidden(text, keepLines).map((p, i) =>
        'text' in p ? (
          p.text
        ) : (
          <span key={i} className="hidden-char" data-kind="hidden-char" title={hiddenDescription(p.hidden)}>
            {`<${codePointLabel(p.hidden)}>`}
          </span>
        ),
      )}
    </>
  );
}

/** How many characters VisibleText marks in these texts. */
export function countHidden(...texts: Array<string | undefined>): number {
  let n = 0;
  for (const t of texts) if (t && hasHidden(t, keepLines)) n += splitHidden(t, keepLines).filter((p) => 'hidden' in p).length;
  return n;
}
