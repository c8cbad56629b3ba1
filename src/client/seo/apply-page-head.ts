import { buildPageHead, PAGE_HEAD_ATTRIBUTE, type PageHeadInput } from '#shared/page-head.js';
import { jsonLdText } from '#shared/structured-data.js';

/**
 * Puts a page's head into the document: what the server sends for the same address (both come from
 * buildPageHead). Whatever the server or the previous page set goes first, so that no tag of another
 * page lingers.
 */
export function applyPageHead(input: PageHeadInput): void {
  const head = buildPageHead(input);
  document.title = head.title;
  document.head.querySelectorAll(`[${PAGE_HEAD_ATTRIBUTE}]`).forEach((element) => element.remove());
  for (const tag of head.tags) {
    const element = document.createElement(tag.element);
    element.setAttribute(PAGE_HEAD_ATTRIBUTE, '');
    for (const [name, value] of Object.entries(tag.attributes)) element.setAttribute(name, value);
    document.head.append(element);
  }
  for (const block of head.jsonLd) {
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.setAttribute(PAGE_HEAD_ATTRIBUTE, '');
    script.textContent = jsonLdText(block);
    document.head.append(script);
  }
}
