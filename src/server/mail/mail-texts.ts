import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { TextLanguage } from '#shared/catalog.js';
import { endingSentence } from '#shared/sentence.js';
import { projectPath } from '#server/project-path.js';
import type englishTexts from './texts/en.json';

/** The wording of every e-mail in one language, as src/server/mail/texts/en.json has it. */
export type MailTexts = typeof englishTexts;

/** Where the shop's own wording lives: src/server/mail/texts/{language}.json. */
const defaultTextsFile = (language: TextLanguage) => projectPath('src/server/mail/texts', `${language}.json`);

/** Where the owner may change any of it: DATA_DIR/mail-texts/{language}.json, with only the texts to replace. */
export const ownTextsFile = (dataDir: string, language: TextLanguage) => path.resolve(dataDir, 'mail-texts', `${language}.json`);

type TextTree = { [key: string]: string | TextTree };

/** The defaults with the owner's texts laid over them; a key the defaults lack, or a text that is not a string, is ignored. */
function overlay(defaults: TextTree, own: unknown): TextTree {
  if (typeof own !== 'object' || own === null) return defaults;
  const result: TextTree = {};
  for (const [key, value] of Object.entries(defaults)) {
    const replacement = (own as Record<string, unknown>)[key];
    if (typeof value === 'string') result[key] = typeof replacement === 'string' && replacement.trim() ? replacement : value;
    else result[key] = overlay(value, replacement);
  }
  return result;
}

/** "Order #{orderId}" with { orderId: 'NA-1' } gives "Order #NA-1"; a name without a value stays as it is. */
export function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}(\.?)/g, (whole, name: string, stop: string) => (name in values ? endingSentence(String(values[name]), stop) : whole));
}

/**
 * The e-mails' wording. The owner's file is read again whenever it changes, so a change of wording
 * needs no restart; a file that is not valid JSON is reported in the log and the defaults are used.
 */
export class MailTextBook {
  private readonly cache = new Map<TextLanguage, { stamp: number; texts: MailTexts }>();
  private readonly defaults = new Map<TextLanguage, TextTree>();

  constructor(
    private readonly dataDir: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  texts(language: TextLanguage): MailTexts {
    const file = ownTextsFile(this.dataDir, language);
    const stamp = modifiedAt(file);
    const cached = this.cache.get(language);
    if (cached && cached.stamp === stamp) return cached.texts;
    const texts = overlay(this.defaultTexts(language), stamp ? this.readOwnTexts(file) : undefined) as unknown as MailTexts;
    this.cache.set(language, { stamp, texts });
    return texts;
  }

  private defaultTexts(language: TextLanguage): TextTree {
    let texts = this.defaults.get(language);
    if (!texts) {
      texts = JSON.parse(readFileSync(defaultTextsFile(language), 'utf8')) as TextTree;
      this.defaults.set(language, texts);
    }
    return texts;
  }

  private readOwnTexts(file: string): unknown {
    try {
      return JSON.parse(readFileSync(file, 'utf8'));
    } catch (error) {
      this.log.warn({ file, reason: (error as Error).message }, 'The e-mail texts in this file could not be read; the default texts are used');
      return undefined;
    }
  }
}

/** The file's modification time, or 0 when there is no such file. */
function modifiedAt(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
}
