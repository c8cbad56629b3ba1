import type { TextLanguage } from './catalog.js';

/** The shop's legal and trust pages, each at /legal/{page} in both languages. */
export const LEGAL_PAGES = ['terms', 'privacy', 'returns', 'seller'] as const;
export type LegalPage = (typeof LEGAL_PAGES)[number];

export const isLegalPage = (value: unknown): value is LegalPage => LEGAL_PAGES.includes(value as LegalPage);

/** GET /api/legal/{page}?lang=en|bg */
export interface LegalPageResponse {
  page: LegalPage;
  language: TextLanguage;
  /** The page's first-level heading, as text. */
  title: string;
  /** The page rendered from Markdown on the server: no raw HTML, no scripts, only safe links. */
  html: string;
  /** A short hash of the page's text in both languages; changes whenever the owner changes the page. */
  version: string;
}
