import { memo, useDeferredValue, useMemo } from 'react';
import { CodeBlock } from './CodeBlock';
import { splitMarkdown } from './segments';
import './markdown.css';

/**
 * Sanitized Markdown, code blocks as components with Copy and Insert. While text streams in,
 * rendering follows a deferred copy of it so typing and scrolling stay responsive when deltas
 * arrive quickly.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const deferred = useDeferredValue(text);
  const source = streaming ? deferred : text;
  const segments = useMemo(() => splitMarkdown(source), [source]);
  return (
    <div className="markdown">
      {segments.map((s, i) =>
        s.kind === 'code' ? (
          <CodeBlock key={i} code={s.code} {...(s.language ? { language: s.language } : {})} />
        ) : (
          <div key={i} className="markdown-part" dangerouslySetInnerHTML={{ __html: s.html }} />
        ),
      )}
    </div>
  );
});
