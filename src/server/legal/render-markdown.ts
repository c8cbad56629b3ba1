import MarkdownIt, { type Env, type Token } from 'markdown-it';

/**
 * The legal pages' Markdown as HTML for the shop's pages. The text comes from the shop and its owner,
 * but the page shows the HTML as it is, so it is rendered as if it came from anyone: raw HTML is
 * shown as text (html: false), only links to web pages, e-mail and telephone addresses become
 * links, and addresses in the text do not turn into links by themselves (linkify: false).
 * Images are left out: a page of terms needs none, and an image from another site would tell it who reads.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
markdown.disable('image');

/** markdown-it's own check refuses javascript:, vbscript:, file: and data: (https://github.com/markdown-it/markdown-it/blob/master/docs/security.md); this also refuses any other scheme. */
const SAFE_SCHEME = /^(https?:|mailto:|tel:)/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const validateLink = markdown.validateLink.bind(markdown);
markdown.validateLink = (url) => validateLink(url) && (SAFE_SCHEME.test(url.trim()) || !HAS_SCHEME.test(url.trim()));

/** A link to another site opens it without handing it this page (window.opener) or its address (Referer). */
const renderLinkOpen = markdown.renderer.rules.link_open ?? ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const href = String(token.attrGet('href') ?? '');
  if (isOtherSite(href, (env as RenderEnvironment | undefined)?.siteOrigin)) token.attrSet('rel', 'noopener noreferrer');
  return renderLinkOpen(tokens, index, options, env, self);
};

interface RenderEnvironment extends Env {
  siteOrigin: string;
}

/** Whether a link leaves the shop: an address with a host (https://…, //…) other than the shop's. */
function isOtherSite(href: string, siteOrigin: string | undefined): boolean {
  if (!/^(https?:)?\/\//i.test(href)) return false;
  try {
    return new URL(href, siteOrigin).origin !== siteOrigin;
  } catch {
    return true;
  }
}

export interface RenderedMarkdown {
  html: string;
  /** The text of the first first-level heading, or '' when there is none. */
  title: string;
}

/** Renders a page's Markdown; links to other sites than `siteUrl`'s get rel="noopener noreferrer". */
export function renderMarkdown(source: string, siteUrl: string): RenderedMarkdown {
  const env: RenderEnvironment = { siteOrigin: new URL(siteUrl).origin };
  const tokens = markdown.parse(source, env);
  const headingAt = tokens.findIndex((token) => token.type === 'heading_open' && token.tag === 'h1');
  const title = headingAt >= 0 ? plainText(tokens[headingAt + 1]?.children ?? []) : '';
  return { html: markdown.renderer.render(tokens, markdown.options, env), title };
}

/** An inline token's text without its markup ("**Terms** of `use`" is "Terms of use"). */
function plainText(children: readonly Token[]): string {
  return children
    .map((child) => (child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'softbreak' || child.type === 'hardbreak' ? ' ' : ''))
    .join('')
    .trim();
}

/** Every ASCII punctuation character: ! to /, : to @, [ to `, { to ~. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/**
 * A value (the seller's name, an address) as Markdown that shows it as it is: every ASCII punctuation
 * character that Markdown could read as markup is escaped with a backslash (CommonMark allows this
 * for any of them, https://spec.commonmark.org/0.31.2/#backslash-escapes), and line breaks become
 * spaces, so a value can neither start a block nor end the line it is on.
 */
export function markdownText(value: string): string {
  return value.replace(/\s+/g, ' ').trim().replace(ASCII_PUNCTUATION, (char) => `\\${char}`);
}
