import DOMPurify from 'dompurify';
import { Marked, type Tokens, type TokensList } from 'marked';

/**
 * Model text -> safe HTML. marked renders GitHub-flavoured Markdown; DOMPurify removes
 * scripts, handlers, styles and forms. Images are kept only as data: URLs: a remote image
 * would leak data to its server. The CSP blocks remote loads too, but not ones within its own
 * source (code-server serves the webview and proxies local ports from one origin), so nothing
 * that loads by itself survives: no <input type=image>, <svg>/<math> (their <image href>),
 * <picture>, `background`/`poster` attributes, or `href`/`xlink:href` outside links.
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
    // Task lists: a box character, since <input> elements are not kept.
    checkbox({ checked }: Tokens.Checkbox) {
      return `<span class="md-task" aria-checked="${checked ? 'true' : 'false'}" role="checkbox">${checked ? '☑' : '☐'}</span> `;
    },
  },
});

const purify = DOMPurify(window);
purify.addHook('uponSanitizeAttribute', (node, data) => {
  const name = data.attrName.toLowerCase();
  // Raw <img src="https://..."> inside the Markdown: drop the source; no other element keeps one.
  if (name === 'src' && (node.nodeName !== 'IMG' || !DATA_IMAGE.test(data.attrValue))) data.keepAttr = false;
  // Only links carry an href.
  if ((name === 'href' && node.nodeName !== 'A') || name === 'xlink:href') data.keepAttr = false;
});
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.nodeName === 'A' && node.getAttribute('href')) node.setAttribute('title', node.getAttribute('href') ?? '');
});

const SANITIZE = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'video', 'audio', 'source', 'track', 'input', 'svg', 'math', 'picture', 'image', 'link', 'meta', 'base'],
  FORBID_ATTR: ['style', 'srcset', 'ping', 'background', 'poster', 'xlink:href', 'action', 'formaction', 'lowsrc', 'dynsrc'],
};

/** Markdown -> top-level tokens, with the same options the renderer uses. */
export function lexMarkdown(source: string): TokensList {
  return marked.lexer(source);
}

/** Already-lexed Markdown (a run of top-level tokens) -> safe HTML. */
export function renderTokens(tokens: TokensList): string {
  return purify.sanitize(marked.parser(tokens), SANITIZE);
}
