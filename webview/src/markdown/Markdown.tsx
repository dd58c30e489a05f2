import { memo, useDeferredValue, useMemo } from 'react';
import { renderMarkdown } from './render';
import './markdown.css';

/**
 * Sanitized Markdown. While text streams in, rendering follows a deferred copy of it so
 * typing and scrolling stay responsive when deltas arrive quickly.
 */
export const Markdown = memo(function Markdown({ text, streaming = false }: { text: string; streaming?: boolean }) {
  const deferred = useDeferredValue(text);
  const source = streaming ? deferred : text;
  const html = useMemo(() => renderMarkdown(source), [source]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
});
