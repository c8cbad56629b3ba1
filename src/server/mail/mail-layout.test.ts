import { describe, expect, it } from 'vitest';
import { renderMail } from './mail-layout.js';

describe('renderMail', () => {
  const mail = renderMail({
    language: 'bg',
    shopName: 'Nail Art Atelier',
    subject: 'Поръчка <1>',
    heading: 'Благодарим ви!',
    blocks: [
      { kind: 'paragraph', text: 'Здравейте, <script>alert(1)</script> & "приятели",' },
      { kind: 'items', head: ['Продукт', 'Цена'], rows: [['Перли <b>', '2 × BGN 19,99 = BGN 39,98'], ['Комплект', 'BGN 21,50', 'Бадем · Размери 1-5-4-6-8 / 1-5-4-6-8 · <мечта>']] },
      { kind: 'facts', rows: [['Общо', 'BGN 58,47']], emphasizeLast: true },
      { kind: 'button', label: 'Вижте поръчката си', url: 'https://shop.example/profile?order=NA-1&x="y"' },
      { kind: 'lines', lines: ['Maria Ivanova', '1000 Sofia'] },
    ],
    footer: ['Пишете ни на help@shop.example.'],
  });

  it('escapes every text and address in the HTML part', () => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;приятели&quot;');
    expect(mail.html).toContain('Перли &lt;b&gt;');
    // A line's choices in small print under its name.
    expect(mail.html).toMatch(/Комплект<br><span style="[^"]*">Бадем · Размери 1-5-4-6-8 \/ 1-5-4-6-8 · &lt;мечта&gt;<\/span>/);
    expect(mail.html).toContain('href="https://shop.example/profile?order=NA-1&amp;x=&quot;y&quot;"');
    expect(mail.html).toContain('<html lang="bg">');
    expect(mail.html).not.toMatch(/<img/);
  });

  it('says the same in the plain-text part', () => {
    expect(mail.text).toContain('Здравейте, <script>alert(1)</script> & "приятели",');
    expect(mail.text).toContain('Перли <b>: 2 × BGN 19,99 = BGN 39,98\nКомплект: BGN 21,50\n  Бадем · Размери 1-5-4-6-8 / 1-5-4-6-8 · <мечта>');
    expect(mail.text).toContain('Общо: BGN 58,47');
    expect(mail.text).toContain('Вижте поръчката си: https://shop.example/profile?order=NA-1&x="y"');
    expect(mail.text).toContain('Maria Ivanova\n1000 Sofia');
    expect(mail.subject).toBe('Поръчка <1>');
  });
});
