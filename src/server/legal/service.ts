import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TEXT_LANGUAGES, type TextLanguage } from '#shared/catalog.js';
import type { LegalPage, LegalPageResponse } from '#shared/legal.js';
import { SITE_NAME } from '#shared/page-head.js';
import type { Config } from '#server/config.js';
import { projectPath } from '#server/project-path.js';
import { markdownText, renderMarkdown } from './render-markdown.js';

/** What the legal pages need of the configuration: where the owner's pages are, the shop's address, the seller. */
export type LegalSettings = Pick<Config, 'dataDir' | 'publicUrl' | 'seller'>;

/** The shop's own pages: src/server/legal/templates/{page}.{language}.md. */
const defaultLegalFile = (page: LegalPage, language: TextLanguage) => projectPath('src/server/legal/templates', `${page}.${language}.md`);

/** Where the owner replaces a page: DATA_DIR/legal/{page}.{language}.md, with the same placeholders. */
export const ownLegalFile = (dataDir: string, page: LegalPage, language: TextLanguage) => path.resolve(dataDir, 'legal', `${page}.${language}.md`);

/** The values a page may name as {{name}}. */
function placeholderValues({ publicUrl, seller }: LegalSettings): Record<string, string> {
  return {
    shopName: SITE_NAME,
    legalName: seller.legalName,
    uic: seller.uic,
    vatNumber: seller.vatNumber,
    address: seller.address,
    phone: seller.phone,
    email: seller.email,
    publicUrl,
  };
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/**
 * The page's Markdown with every {{name}} replaced by its value, escaped so that it shows as written
 * (a name with "*" or "<b>" in it stays text). A line that names a value that is empty (the VAT number
 * of a seller not registered for VAT) is left out; an unknown name stays as it is.
 */
export function fillPlaceholders(source: string, values: Record<string, string>): string {
  const value = (name: string) => (Object.hasOwn(values, name) ? values[name] : undefined);
  return source
    .split('\n')
    .filter((line) => ![...line.matchAll(PLACEHOLDER)].some(([, name]) => value(name!) === ''))
    .join('\n')
    .replace(PLACEHOLDER, (whole, name: string) => {
      const text = value(name);
      return text === undefined ? whole : markdownText(text);
    });
}

/** Files read before, by path, with the modification time and size they had then. */
const sources = new Map<string, { stamp: string; text: string }>();

/**
 * The page's Markdown: the owner's file when there is one, else the shop's. A file is read again
 * when it has changed, so a new version of a page needs no restart. An owner's file that exists but
 * cannot be read fails the request rather than showing the shop's text in its place, since customers
 * must see, and accept, the terms the owner set.
 */
function pageSource(dataDir: string, page: LegalPage, language: TextLanguage): string {
  const own = ownLegalFile(dataDir, page, language);
  const ownStamp = fileStamp(own);
  const file = ownStamp ? own : defaultLegalFile(page, language);
  const stamp = ownStamp ?? fileStamp(file) ?? '';
  const cached = sources.get(file);
  if (cached && cached.stamp === stamp) return cached.text;
  // A byte-order mark from an editor would otherwise keep the first line from being a heading.
  const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  sources.set(file, { stamp, text });
  return text;
}

/**
 * The file's modification time and size, which change when it is written; undefined when there is no
 * such file (asked without an exception: every order asks about the owner's files, usually absent).
 */
function fileStamp(file: string): string | undefined {
  const stats = statSync(file, { throwIfNoEntry: false });
  return stats ? `${stats.mtimeMs}:${stats.size}` : undefined;
}

const filledSource = (settings: LegalSettings, page: LegalPage, language: TextLanguage) =>
  fillPlaceholders(pageSource(settings.dataDir, page, language), placeholderValues(settings));

/** Each page's version for the settings it was computed with, and the files' stamps it was computed from. */
const versions = new WeakMap<LegalSettings, Map<LegalPage, { stamps: string; version: string }>>();

/**
 * A short hash of the page's text in both languages after its placeholders are filled. It is computed
 * again only when a file it reads has changed (checkout asks for the terms' version with every order):
 * the files' stamps are compared, not their texts.
 */
function pageVersion(settings: LegalSettings, page: LegalPage): string {
  const stamps = TEXT_LANGUAGES.map((language) => {
    const own = ownLegalFile(settings.dataDir, page, language);
    return fileStamp(own) ?? `default:${fileStamp(defaultLegalFile(page, language)) ?? ''}`;
  }).join('|');
  const known = versions.get(settings) ?? new Map<LegalPage, { stamps: string; version: string }>();
  versions.set(settings, known);
  const cached = known.get(page);
  if (cached?.stamps === stamps) return cached.version;
  const hash = createHash('sha256');
  for (const language of TEXT_LANGUAGES) hash.update(`${language}\n${filledSource(settings, page, language)}\n`);
  const version = hash.digest('hex').slice(0, 12);
  known.set(page, { stamps, version });
  return version;
}

/**
 * The version of the terms in force, which each order records as accepted: it changes whenever the
 * owner changes the terms in either language, or a setting they show (the seller's name, say).
 */
export const termsVersion = (settings: LegalSettings): string => pageVersion(settings, 'terms');

/** A legal page in a language, rendered. */
export function legalPage(settings: LegalSettings, page: LegalPage, language: TextLanguage): LegalPageResponse {
  const { html, title } = renderMarkdown(filledSource(settings, page, language), settings.publicUrl);
  return { page, language, title, html, version: pageVersion(settings, page) };
}
