import { memo, useEffect, useState } from 'react';
import { useActions } from '../app/context';
import { Icon } from '../ui/Icon';
import { copyText } from './clipboard';

type CopyState = 'idle' | 'copied' | 'failed';

/** A code block from the model, with Copy and Insert at cursor (into the active editor, by the host). */
export const CodeBlock = memo(function CodeBlock({ code, language }: { code: string; language?: string }) {
  const actions = useActions();
  const [copy, setCopy] = useState<CopyState>('idle');
  useEffect(() => {
    if (copy === 'idle') return;
    const timer = setTimeout(() => setCopy('idle'), 1500);
    return () => clearTimeout(timer);
  }, [copy]);

  return (
    <div className="code-block" data-kind="code-block" data-language={language}>
      <div className="code-toolbar">
        <span className="code-language">{language ?? ''}</span>
        <button
          type="button"
          className="icon-button"
          aria-label="Copy code"
          title={copy === 'copied' ? 'Copied' : copy === 'failed' ? 'Could not copy' : 'Copy'}
          data-copied={copy === 'copied' ? 'true' : undefined}
          onClick={() => void copyText(code).then((ok) => setCopy(ok ? 'copied' : 'failed'))}
        >
          <Icon name={copy === 'copied' ? 'check' : 'copy'} />
        </button>
        <button type="button" className="icon-button" aria-label="Insert at cursor" title="Insert at cursor" onClick={() => actions.insertCode(code, language)}>
          <Icon name="insert" />
        </button>
      </div>
      <pre>
        <code className={language ? `language-${language}` : undefined}>{code}</code>
      </pre>
    </div>
  );
});
