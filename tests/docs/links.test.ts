import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';

// Every relative link in the README and docs/ must name a file that exists and, when it points
// into a Markdown file, a heading that exists there: chapters move between files, and a link left
// behind fails here rather than in a reader's browser.

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const markdown = new MarkdownIt({ html: true });

function markdownFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

type Token = ReturnType<typeof markdown.parse>[number];

function inlineText(token: Token): string {
  return (token.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingAnchor(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings, repeated ones numbered as GitHub numbers them. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const tokens = markdown.parse(text, {});
  tokens.forEach((token, index) => {
    if (token.type !== 'heading_open') return;
    const base = headingAnchor(inlineText(tokens[index + 1]!));
    const times = seen.get(base) ?? 0;
    seen.set(base, times + 1);
    anchors.add(times === 0 ? base : `${base}-${times}`);
  });
  return anchors;
}

function linksOf(text: string): string[] {
  const links: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'link_open') links.push(String(token.attrGet('href') ?? ''));
      if (token.children) visit(token.children);
    }
  };
  visit(markdown.parse(text, {}));
  return links;
}

/** What is wrong with each relative link of `text`, a Markdown file at `path`. */
function brokenLinks(path: string, text: string, readFile = (file: string) => readFileSync(file, 'utf8')): string[] {
  const problems: string[] = [];
  for (const href of linksOf(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue; // https:, mailto:...
    const [target = '', anchor] = href.split('#');
    const file = target === '' ? path : resolve(dirname(path), decodeURIComponent(target));
    if (!existsSync(file)) {
      problems.push(`${href}: no such file`);
      continue;
    }
    if (anchor && file.endsWith('.md') && !anchorsOf(file === path ? text : readFile(file)).has(anchor)) {
      problems.push(`${href}: no heading with that anchor`);
    }
  }
  return problems;
}

describe('links in the documentation', () => {
  const files = [join(root, 'README.md'), ...markdownFiles(join(root, 'docs'))];

  it.each(files.map((file) => [relative(root, file), file]))('%s links only to what exists', (_name, file) => {
    expect(brokenLinks(file, readFileSync(file, 'utf8'))).toEqual([]);
  });

  it('finds a missing file, a missing heading and takes GitHub anchors', () => {
    const readme = join(root, 'README.md');
    const text = [
      '# Top',
      '## Sending real e-mail',
      '[gone](docs/no-such-file.md) [file](docs/decisions/README.md) [here](#sending-real-e-mail)',
      '[nowhere](#no-such-heading) [web](https://example.com/x.md) `[code](not-a-link.md)`',
    ].join('\n\n');
    expect(brokenLinks(readme, text)).toEqual([
      'docs/no-such-file.md: no such file',
      '#no-such-heading: no heading with that anchor',
    ]);
    expect(headingAnchor('The cart, live and offline')).toBe('the-cart-live-and-offline');
    expect(headingAnchor('Where things live in `src/`')).toBe('where-things-live-in-src');
  });
});
