import DOMPurify from 'dompurify';
import { Marked, type Tokens, type TokensList } from 'marked';

/**
 * Model text -> safe HTML. marked renders GitHub-flavoured Markdown; DOMPurify removes
 * scripts, handlers, styles and forms. Images are kept only as data: URLs: a remote image
 * would leak data to its server (the CSP blocks it too; this keeps it from even trying).
 */

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp);base64,/i;

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const marked = new Marked({ gfm: true, breaks: false, async: false });
marked.use({
  renderer: {
    image({ href, text }: Tokens.Image) {
      if (DATA_IMAGE.test(href)) return false; // the default <img>
      return `<span class="md-blocked-image" title="${escapeHtml(`Remote image not loaded: ${href}`)}">[image: ${escapeHtml(text || href)}]</span>`;
    },
  },
});

const purify = DOMPurify(window);
purify.addHook('uponSanitizeAttribute', (node, data) => {
  // Raw <img src="https://..."> inside the Markdown: drop the source.
  if (node.nodeName === 'IMG' && data.attrName === 'src' && !DATA_IMAGE.test(data.attrValue)) data.keepAttr = false;
});
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' && node.getAttribute('href')) node.setAttribute('title', node.getAttribute('href') ?? '');
});

const SANITIZE = {
  USE_PROFILE: { html: true },
  FORBID_TAGS: ['style', 'form', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'video', 'audio', 'source'],
  FORBID_ATTR: ['style', 'srcset', 'ping'],
};

/** Markdown -> top-level tokens, with the same options the renderer uses. */
export function lexMarkdown(source: string): TokensList {
  return marked.lexer(source);
}

/** Already-lexed Markdown (a run of top-level tokens) -> safe HTML. */
export function renderTokens(tokens: TokensList): string {
  return purify.sanitize(marked.parser(tokens), SANITIZE);
}
