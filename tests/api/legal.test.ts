import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LEGAL_PAGES, type LegalPageResponse } from '#shared/legal.js';
import { ownLegalFile, termsVersion } from '#server/legal/service.js';
import { describeEachDatabase, type TestApp } from './test-app.js';

const seller = {
  SHOP_LEGAL_NAME: 'Ателие ООД',
  SHOP_UIC: '123456786',
  SHOP_VAT_NUMBER: 'BG123456786',
  SHOP_ADDRESS: 'ул. „Шипка“ 7, 1504 София',
  SHOP_PHONE: '+359 88 812 3456',
  SUPPORT_EMAIL: 'hello@atelier.example',
};

const TITLES = {
  en: { terms: 'Terms and conditions', privacy: 'Privacy policy', returns: 'Returns and withdrawal', seller: 'About the seller' },
  bg: { terms: 'Общи условия', privacy: 'Политика за поверителност', returns: 'Връщане и отказ от поръчка', seller: 'За търговеца' },
} as const;

async function getPage(context: () => TestApp, page: string, lang?: string) {
  const response = await context().app.inject({ method: 'GET', url: `/api/legal/${page}${lang ? `?lang=${lang}` : ''}` });
  return { response, body: response.json<LegalPageResponse>() };
}

/** Writes the owner's version of a page, as the owner would put it in DATA_DIR/legal. */
async function writeOwnPage(dataDir: string, page: 'terms' | 'seller', language: 'en' | 'bg', text: string) {
  const file = ownLegalFile(dataDir, page, language);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  return file;
}

describeEachDatabase(
  'legal pages',
  (context) => {
    it('serves every page in English and Bulgarian, titled by its first heading, with no placeholder left', async () => {
      for (const language of ['en', 'bg'] as const) {
        for (const page of LEGAL_PAGES) {
          const { response, body } = await getPage(context, page, language);
          expect(response.statusCode, `${page} ${language}`).toBe(200);
          expect(response.headers['cache-control']).toBe('no-cache');
          expect(body).toMatchObject({ page, language, title: TITLES[language][page] });
          expect(body.html.startsWith(`<h1>${TITLES[language][page]}</h1>`)).toBe(true);
          expect(body.html).not.toContain('{{');
          expect(body.version).toMatch(/^[0-9a-f]{12}$/);
        }
      }
      // English when the address names no language.
      expect((await getPage(context, 'terms')).body.language).toBe('en');
    });

    it('fills in the seller’s details from the settings', async () => {
      for (const language of ['en', 'bg'] as const) {
        const { body } = await getPage(context, 'seller', language);
        for (const value of ['Ателие ООД', '123456786', 'BG123456786', 'ул. „Шипка“ 7, 1504 София', '+359 88 812 3456', 'Nail Art Atelier', 'http://shop.test']) {
          expect(body.html, `${language}: ${value}`).toContain(value);
        }
        expect(body.html).toContain('<a href="mailto:hello@atelier.example">hello@atelier.example</a>');
        expect(body.html).toContain(language === 'en' ? 'VAT number: BG123456786' : 'ИН по ДДС: BG123456786');
      }
      const returns = (await getPage(context, 'returns', 'bg')).body.html;
      // The model withdrawal form names the seller it is sent to.
      expect(returns).toContain('<h2>Стандартен формуляр за отказ</h2>');
      expect(returns).toContain('До Ателие ООД, ул. „Шипка“ 7, 1504 София, имейл: hello@atelier.example:');
    });

    it('marks links to other sites and keeps links between the shop’s pages plain', async () => {
      const { html } = (await getPage(context, 'terms', 'en')).body;
      expect(html).toContain('<a href="https://kzp.bg" rel="noopener noreferrer">kzp.bg</a>');
      expect(html).toContain('<a href="/legal/returns">Returns and withdrawal</a>');
    });

    it('answers an unknown page with 404 and a language it does not have with 400, in the API’s error shape', async () => {
      for (const page of ['cookies', 'TERMS', '..%2Fterms', '__proto__']) {
        const { response, body } = await getPage(context, page);
        expect(response.statusCode, page).toBe(404);
        expect(body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
      }
      for (const lang of ['de', 'EN', 'en&lang=bg']) {
        const { response, body } = await getPage(context, 'terms', lang);
        expect(response.statusCode, lang).toBe(400);
        expect(body).toEqual({ error: { code: 'bad_request', message: expect.any(String) } });
      }
    });

    it('loads the app at the pages’ addresses with their titles, and the not-found page at others', async () => {
      const terms = await context().app.inject({ method: 'GET', url: '/legal/terms?lang=bg' });
      expect(terms.statusCode).toBe(200);
      expect(terms.body).toContain('<title>Общи условия | Nail Art Atelier</title>');
      expect(terms.body).toContain('content="noindex, nofollow"');
      const unknown = await context().app.inject({ method: 'GET', url: '/legal/cookies' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('<title>Page not found | Nail Art Atelier</title>');
    });

    it('shows the owner’s page from DATA_DIR/legal instead of the shop’s, follows its changes, and versions the terms by it', async () => {
      const { config, dataDir } = context();
      const before = (await getPage(context, 'terms', 'en')).body;
      expect(termsVersion(config)).toBe(before.version);
      // Both languages share one version: a change to either is a new version of the terms.
      expect((await getPage(context, 'terms', 'bg')).body.version).toBe(before.version);

      const file = await writeOwnPage(dataDir, 'terms', 'bg', '# Нашите условия\n\nПродавач: {{legalName}}, ЕИК {{uic}}.\n');
      const own = (await getPage(context, 'terms', 'bg')).body;
      expect(own.title).toBe('Нашите условия');
      expect(own.html).toBe('<h1>Нашите условия</h1>\n<p>Продавач: Ателие ООД, ЕИК 123456786.</p>\n');
      expect(own.version).not.toBe(before.version);
      expect(termsVersion(config)).toBe(own.version);
      expect((await getPage(context, 'terms', 'en')).body).toMatchObject({ title: 'Terms and conditions', version: own.version });

      // The file is read again when it changes, with no restart.
      await writeFile(file, '# Нашите нови условия\n');
      const changed = (await getPage(context, 'terms', 'bg')).body;
      expect(changed.title).toBe('Нашите нови условия');
      expect(changed.version).not.toBe(own.version);
      expect(termsVersion(config)).toBe(changed.version);

      // Without the file, the shop's own terms are back, with their version.
      await rm(file);
      expect((await getPage(context, 'terms', 'bg')).body).toMatchObject({ title: 'Общи условия', version: before.version });
      expect(termsVersion(config)).toBe(before.version);
    });

    it('shows raw HTML and script links in the owner’s page as text', async () => {
      const { dataDir } = context();
      const file = await writeOwnPage(
        dataDir,
        'seller',
        'en',
        '# Seller\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1)) <img src=x onerror="alert(1)"> [y](JaVaScRiPt:alert(1)) <a href="javascript:alert(1)">z</a>\n',
      );
      try {
        const { html } = (await getPage(context, 'seller', 'en')).body;
        // No element but the heading and the paragraphs, and no attribute at all: the rest is text.
        expect(html.match(/<[a-z][^>]*>/gi)).toEqual(['<h1>', '<p>', '<p>']);
        expect(html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
        expect(html).toContain('[x](javascript:alert(1))');
      } finally {
        await rm(file);
      }
    });
  },
  seller,
);

describe('legal pages with settings that look like markup', () => {
  describeEachDatabase(
    'seller',
    (context) => {
      it('shows a setting’s Markdown and HTML as text', async () => {
        const { html } = (await getPage(context, 'seller', 'en')).body;
        expect(html).toContain('<strong>&lt;img src=x onerror=alert(1)&gt; [Click](https://evil.example) **Bold**</strong>');
        expect(html).toContain('Phone: &lt;script&gt;alert(1)&lt;/script&gt;');
        expect(html).toContain('Registered office and address: _under_ `code` # not a heading');
        expect(html).not.toMatch(/<img|<script|evil\.example"|<em>|<code>/);
      });

      it('leaves out the VAT number’s line when the seller has none', async () => {
        const english = (await getPage(context, 'seller', 'en')).body.html;
        const bulgarian = (await getPage(context, 'seller', 'bg')).body.html;
        expect(english).not.toContain('VAT number');
        expect(bulgarian).not.toContain('ИН по ДДС');
        expect(english).toContain('Unified identification code (UIC): 000000000');
      });
    },
    {
      SHOP_LEGAL_NAME: '<img src=x onerror=alert(1)> [Click](https://evil.example) **Bold**',
      SHOP_PHONE: '<script>alert(1)</script>',
      SHOP_ADDRESS: '_under_ `code`\n# not a heading',
    },
  );
});
