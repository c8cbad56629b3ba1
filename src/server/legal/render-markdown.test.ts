import { describe, expect, it } from 'vitest';
import { markdownText, renderMarkdown } from './render-markdown.js';

const site = 'https://shop.example';
const html = (source: string) => renderMarkdown(source, site).html;

describe('renderMarkdown', () => {
  it.each([
    ['a heading', '# Terms', '<h1>Terms</h1>'],
    ['emphasis', 'It is *handmade* and **yours**.', '<p>It is <em>handmade</em> and <strong>yours</strong>.</p>'],
    ['a list', '- one\n- two', '<ul>\n<li>one</li>\n<li>two</li>\n</ul>'],
    ['a numbered list', '1. one\n2. two', '<ol>\n<li>one</li>\n<li>two</li>\n</ol>'],
    ['a table', '| Data | Kept |\n| --- | --- |\n| Orders | 10 years |', '<table>\n<thead>\n<tr>\n<th>Data</th>\n<th>Kept</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Orders</td>\n<td>10 years</td>\n</tr>\n</tbody>\n</table>'],
    ['a link to another of the shop’s pages', '[Privacy](/legal/privacy)', '<p><a href="/legal/privacy">Privacy</a></p>'],
    ['a link to the shop’s own address', '[Shop](https://shop.example/legal/terms)', '<p><a href="https://shop.example/legal/terms">Shop</a></p>'],
    ['a link to another site', '[KZP](https://kzp.bg)', '<p><a href="https://kzp.bg" rel="noopener noreferrer">KZP</a></p>'],
    ['a protocol-relative link to another site', '[KZP](//kzp.bg)', '<p><a href="//kzp.bg" rel="noopener noreferrer">KZP</a></p>'],
    ['an e-mail link', '[Write](mailto:help@shop.example)', '<p><a href="mailto:help@shop.example">Write</a></p>'],
    ['a telephone link', '[Call](tel:+35920000000)', '<p><a href="tel:+35920000000">Call</a></p>'],
    ['a bare address, which stays text', 'See https://kzp.bg today', '<p>See https://kzp.bg today</p>'],
  ])('renders %s', (_name, source, expected) => {
    expect(html(source).trim()).toBe(expected);
  });

  it.each([
    ['a script element', '<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>'],
    ['an HTML block', '<div onclick="alert(1)">x</div>', '<p>&lt;div onclick=&quot;alert(1)&quot;&gt;x&lt;/div&gt;</p>'],
    ['inline HTML', 'a <img src=x onerror=alert(1)> b', '<p>a &lt;img src=x onerror=alert(1)&gt; b</p>'],
    ['a javascript: link', '[x](javascript:alert(1))', '<p>[x](javascript:alert(1))</p>'],
    ['a javascript: link in capitals and entities', '[x](JAVA&#83;CRIPT:alert(1))', '<p>[x](JAVASCRIPT:alert(1))</p>'],
    ['a vbscript: link', '[x](vbscript:msgbox)', '<p>[x](vbscript:msgbox)</p>'],
    ['a data: link', '[x](data:text/html;base64,PHNjcmlwdD4=)', '<p>[x](data:text/html;base64,PHNjcmlwdD4=)</p>'],
    ['a data: image link', '[x](data:image/png;base64,AAAA)', '<p>[x](data:image/png;base64,AAAA)</p>'],
    ['another scheme', '[x](file:///etc/passwd)', '<p>[x](file:///etc/passwd)</p>'],
    ['a javascript: autolink', '<javascript:alert(1)>', '<p>&lt;javascript:alert(1)&gt;</p>'],
    ['an image, which would load from another site', '![me](https://tracker.example/pixel.png)', '<p>!<a href="https://tracker.example/pixel.png" rel="noopener noreferrer">me</a></p>'],
  ])('refuses %s', (_name, source, expected) => {
    expect(html(source).trim()).toBe(expected);
  });

  it('takes the title from the first first-level heading, as text', () => {
    expect(renderMarkdown('Intro\n\n## Part\n\n# The **terms** of `use` &amp; more\n\n# Later', site).title).toBe('The terms of use & more');
    expect(renderMarkdown('## No first-level heading', site).title).toBe('');
  });
});

describe('markdownText', () => {
  it.each([
    ['plain text', 'Ателие ООД', 'Ателие ООД'],
    ['emphasis and code', '*a* _b_ `c`', '*a* _b_ `c`'],
    ['a link', '[Click](https://evil.example)', '[Click](https://evil.example)'],
    ['an autolink', '<https://evil.example>', '&lt;https://evil.example&gt;'],
    ['HTML', '<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['an entity', '&lt;b&gt;', '&amp;lt;b&amp;gt;'],
    ['a backslash', 'a\\*b', 'a\\*b'],
    ['a heading, list or quote marker', '# 1. - > x', '# 1. - &gt; x'],
    ['line breaks, which could start a block', 'one\n\n# two\n- three', 'one # two - three'],
  ])('keeps %s as text', (_name, value, expected) => {
    expect(html(`Name: ${markdownText(value)}`).trim()).toBe(`<p>Name: ${expected}</p>`);
  });

  it('keeps a value as text in a table cell, a list item and a link’s text, and works in a link’s address', () => {
    const value = markdownText('A | B *C*');
    expect(html(`| Name |\n| --- |\n| ${value} |`)).toContain('<td>A | B *C*</td>');
    expect(html(`- ${value}`)).toContain('<li>A | B *C*</li>');
    const email = markdownText('help@shop.example');
    expect(html(`[${email}](mailto:${email})`).trim()).toBe('<p><a href="mailto:help@shop.example">help@shop.example</a></p>');
  });
});
