import { describe, expect, it } from 'vitest';
import { API_ERROR_CODES } from '#shared/api-errors.js';
import bgCore from '#client/i18n/bg.json';
import bgPages from '#client/i18n/bg.pages.json';
import enCore from '#client/i18n/en.json';
import enPages from '#client/i18n/en.pages.json';
import { createTranslator } from '#client/i18n/i18n.js';
import { errorText, errorTextKey, isFirstPageError, refusedField, TranslatedError } from './error-text.js';
import { ApiError } from './http.js';

// The home page shows errors with only the core texts loaded, so every code it can meet must have its text there;
// the codes of sign-in, checkout, payment and the admin have theirs among the pages' texts, which those load first.
const core = { en: createTranslator('en', enCore), bg: createTranslator('bg', bgCore) };
const full = { en: createTranslator('en', { ...enCore, ...enPages }), bg: createTranslator('bg', { ...bgCore, ...bgPages }) };
const FIRST_PAGE_CODES = ['bad_request', 'not_found', 'unauthorized', 'rate_limited', 'conflict', 'internal', 'unavailable', 'cart_full', 'stock_short', 'stock_changed', 'price_changed', 'choices_changed', 'too_many_streams', 'network'] as const;

describe('the text of each API error', () => {
  it.each([...API_ERROR_CODES, 'network' as const])('%s has a text in English and Bulgarian, among the texts its pages load', (code) => {
    const key = errorTextKey(code);
    const texts = isFirstPageError(code) ? core : full;
    expect(texts.en(key), `en ${key}`).not.toBe(key);
    expect(texts.bg(key), `bg ${key}`).not.toBe(key);
    expect(texts.bg(key)).not.toBe(texts.en(key));
    expect(errorText(texts.bg, new ApiError(500, code, 'Internal error'))).toBe(texts.bg(key));
  });

  it.each(FIRST_PAGE_CODES)('%s, which adding to the cart, the catalogue and the live updates can meet, has its text among the first page’s', (code) => {
    expect(isFirstPageError(code)).toBe(true);
    expect(core.bg(errorTextKey(code))).not.toBe(errorTextKey(code));
  });

  it('shows the general error’s text for a pages’ code before the pages’ texts are there, never a key', () => {
    expect(errorText(core.bg, new ApiError(409, 'discount_refused', 'Refused'))).toBe(core.bg(errorTextKey('internal')));
  });

  it('never passes on the server’s English message', () => {
    const failure = new ApiError(500, 'internal', 'Internal error');
    expect(errorText(core.bg, failure)).toBe('Нещо се обърка от наша страна. Моля, опитайте отново по-късно.');
    expect(errorText(core.en, new ApiError(409, 'cart_full', 'A cart holds at most 100 items.'))).toBe(
      'Your cart is full. Please remove some items before adding more.',
    );
  });

  it('shows the text of the rule a refused input breaks, named by its messageKey, and the code’s text otherwise', () => {
    const refused = new ApiError(400, 'bad_request', 'price: admin.products.messages.priceTooHigh', {
      field: 'price',
      messageKey: 'admin.products.messages.priceTooHigh',
    });
    // The values the message names come with it: the highest price in the shop's currency.
    expect(errorText(full.en, refused, { maxPrice: '€100,000.00' })).toBe('The price can be at most €100,000.00.');
    expect(errorText(full.bg, refused)).toBe(full.bg('admin.products.messages.priceTooHigh'));
    const withEnglishMessage = new ApiError(400, 'bad_request', 'Please select an image for the product', {
      field: 'image',
      messageKey: 'admin.products.messages.imageRequired',
    });
    expect(errorText(full.bg, withEnglishMessage)).toBe(full.bg('admin.products.messages.imageRequired'));
    expect(errorText(full.bg, new ApiError(400, 'bad_request', 'email: auth.errors.invalidEmail', { messageKey: 'auth.errors.invalidEmail' }))).toBe(
      'Моля, въведете валиден имейл адрес.',
    );
  });

  it('never reads a message key out of the English message, and falls back to the code’s text for a key it lacks', () => {
    const badRequest = full.en(errorTextKey('bad_request'));
    for (const message of ['price: admin.products.messages.priceTooHigh', 'auth.errors.invalidEmail', 'Unexpected file photo']) {
      expect(errorText(full.en, new ApiError(400, 'bad_request', message)), message).toBe(badRequest);
    }
    expect(errorText(full.en, new ApiError(400, 'bad_request', 'name: no.such.key', { field: 'name', messageKey: 'no.such.key' }))).toBe(badRequest);
    // A rule's text goes with any code that names one, not only bad_request.
    expect(errorText(full.en, new ApiError(409, 'photos_changed', 'Photos changed', { messageKey: 'admin.products.messages.photosChanged' }))).toBe(
      full.en('admin.products.messages.photosChanged'),
    );
  });

  it('shows a text already translated as it is, and a general text for anything else', () => {
    expect(errorText(core.bg, new TranslatedError('Количката ви е пълна.'))).toBe('Количката ви е пълна.');
    expect(errorText(core.en, new TypeError('x is undefined'))).toBe(core.en(errorTextKey('internal')));
    expect(errorText(core.en, new ApiError(418, 'teapot' as never, 'short and stout'))).toBe(core.en(errorTextKey('internal')));
  });
});

describe('the field a refused input names', () => {
  it('is the field and rule the server named, when this build has the rule’s text', () => {
    const refused = new ApiError(400, 'bad_request', 'phone: checkout.validation.invalidPhone', { field: 'phone', messageKey: 'checkout.validation.invalidPhone' });
    expect(refusedField(full.bg, refused)).toEqual({ field: 'phone', messageKey: 'checkout.validation.invalidPhone' });
  });

  it('is nothing without both, for a rule this build has no text for, or for another failure', () => {
    expect(refusedField(full.en, new ApiError(400, 'bad_request', 'phone: checkout.validation.invalidPhone'))).toBeNull();
    expect(refusedField(full.en, new ApiError(400, 'bad_request', 'x', { messageKey: 'accountData.errors.emailMismatch' }))).toBeNull();
    expect(refusedField(full.en, new ApiError(400, 'bad_request', 'x', { field: 'pageSize' }))).toBeNull();
    expect(refusedField(full.en, new ApiError(400, 'bad_request', 'x', { field: 'city', messageKey: 'checkout.validation.cityOnTheMoon' }))).toBeNull();
    expect(refusedField(full.en, new TypeError('x'))).toBeNull();
    expect(refusedField(full.en, null)).toBeNull();
  });
});
