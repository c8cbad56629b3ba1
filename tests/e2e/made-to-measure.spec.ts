import type { Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import type { NailSizeChart } from '#shared/nail-sizes.js';
import { expect, hasHorizontalScroll, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';

// A buyer of a press-on set chooses its shape and length and her ten sizes on its page, sees them on
// the cart line, saves her sizes in her profile, and finds them filled in on the next sized set.
// The demo catalogue's sets are found through the API, so that renaming one changes nothing here.

const TEXTS = {
  en: {
    addToCart: 'Add to Cart',
    success: 'Success',
    ok: 'OK',
    cartTitle: 'Your Cart',
    sizes: 'Sizes',
    hands: ['Left hand', 'Right hand'],
    fingers: ['Thumb', 'Index', 'Middle', 'Ring', 'Little'],
    mySizes: 'My nail sizes',
    save: 'Save sizes',
    saved: 'Your nail sizes are saved.',
    filledIn: 'Filled in from your saved sizes.',
    shipsBy: /Ships by \w{3} \d{1,2} \w{3}/,
    answer: 'pink ombré',
    notReturnable: ': made to measure or personalised, so not returnable under the 14-day right of withdrawal.',
  },
  bg: {
    addToCart: 'Добавете в количката',
    success: 'Готово',
    ok: 'Добре',
    cartTitle: 'Вашата количка',
    sizes: 'Размери',
    hands: ['Лява ръка', 'Дясна ръка'],
    fingers: ['Палец', 'Показалец', 'Среден', 'Безименен', 'Кутре'],
    mySizes: 'Моите размери на ноктите',
    save: 'Запазете размерите',
    saved: 'Размерите ви са запазени.',
    filledIn: 'Попълнено от запазените ви размери.',
    shipsBy: /Изпращане до [а-я]{2}, \d{1,2} [а-я]+\.?/,
    answer: 'розово омбре',
    notReturnable: ': изработва се по мярка или с персонализация и не подлежи на връщане в 14-дневния срок за отказ.',
  },
} as const;

type Language = keyof typeof TEXTS;

/** The demo catalogue's sized sets with options, as the API sends them. */
async function sizedSets(page: Page): Promise<Product[]> {
  const response = await page.request.get('/api/products');
  expect(response.ok()).toBe(true);
  const { products } = (await response.json()) as { products: Product[] };
  const sets = products.filter((product) => product.sized && product.optionGroups.length >= 2);
  expect(sets.length, 'the demo catalogue has two sized sets with options').toBeGreaterThanOrEqual(2);
  return sets;
}

/** A value of each group that together make a combination on sale. */
function availableValues(product: Product): string[] {
  if (product.stockMode !== 'combination') return product.optionGroups.map((group) => group.values[0]!.id);
  const combination = product.combinations.find((candidate) => candidate.stock === null || candidate.stock > 0);
  expect(combination, `${product.slug} has a combination on sale`).toBeDefined();
  return combination!.key.split('/');
}

const textIn = (text: { en: string; bg: string }, language: Language) => text[language] || text.en;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks ten sizes one finger at a time, left thumb to right little finger. */
async function chooseSizes(page: Page, language: Language, sizes: readonly number[]) {
  const texts = TEXTS[language];
  for (const [handIndex, hand] of texts.hands.entries()) {
    const group = page.getByRole('group', { name: hand, exact: true });
    for (const [fingerIndex, finger] of texts.fingers.entries()) {
      await group.getByRole('combobox', { name: finger, exact: true }).selectOption(String(sizes[handIndex * 5 + fingerIndex]));
    }
  }
}

async function expectSizes(page: Page, language: Language, sizes: readonly number[]) {
  const texts = TEXTS[language];
  for (const [handIndex, hand] of texts.hands.entries()) {
    const group = page.getByRole('group', { name: hand, exact: true });
    for (const [fingerIndex, finger] of texts.fingers.entries()) {
      await expect(group.getByRole('combobox', { name: finger, exact: true })).toHaveValue(String(sizes[handIndex * 5 + fingerIndex]));
    }
  }
}

/** Answers the product's required questions: a text, or a choice's first value. */
async function answerQuestions(page: Page, product: Product, language: Language) {
  for (const question of product.questions.filter((candidate) => candidate.required)) {
    const field = page.getByLabel(new RegExp(`^${escape(textIn(question.label, language))}`));
    if (question.kind === 'text') await field.fill(TEXTS[language].answer);
    else await field.selectOption(question.choices[0]!.id);
  }
}

for (const language of ['en', 'bg'] as const) {
  test(`chooses shape, length and ten sizes, sees them in the cart, and finds saved sizes filled in (${language})`, async ({ page, inbox }) => {
    const texts = TEXTS[language];
    await page.goto(`/?lang=${language}`);
    await signIn(page, inbox, uniqueEmail(`made-to-measure-${language}`));
    const [first, second] = await sizedSets(page);
    const chart = (await (await page.request.get('/api/size-chart')).json()) as NailSizeChart;
    const known = chart.sizes.map((entry) => entry.size);
    // Sizes of her own, not a preset: the two hands differ.
    const mine = [known[2], known[5], known[4], known[6], known[8], known[3], known[6], known[5], known[7], known[9]].map(Number);

    // On the product page: a value of each option group, then the ten sizes, one by one.
    await page.goto(`/product/${first!.slug}`);
    const name = textIn(first!.name, language);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
    const chosen = availableValues(first!);
    const chosenNames: string[] = [];
    for (const [index, group] of first!.optionGroups.entries()) {
      const value = group.values.find((candidate) => candidate.id === chosen[index])!;
      chosenNames.push(textIn(value.name, language));
      const radio = page.getByRole('group', { name: textIn(group.name, language), exact: true }).getByRole('radio', { name: new RegExp(`^${escape(textIn(value.name, language))}`) });
      await radio.check();
      await expect(radio).toBeChecked();
    }
    await chooseSizes(page, language, mine);
    await answerQuestions(page, first!, language);
    await expect(page.getByText(texts.shipsBy)).toBeVisible();
    expect(await hasHorizontalScroll(page)).toBe(false);

    await page.getByRole('button', { name: `${texts.addToCart}: ${name}` }).click();
    await expect(page.getByRole('dialog', { name: texts.success })).toContainText(name);
    await page.getByRole('dialog').getByRole('button', { name: texts.ok }).click();

    // The cart line carries the choices, compactly, in the page's language.
    await page.goto('/cart');
    await expect(page.getByRole('heading', { name: texts.cartTitle })).toBeVisible();
    const line = page.getByRole('main').getByRole('listitem').filter({ hasText: name });
    await expect(line).toHaveCount(1);
    await expect(line).toContainText(`${chosenNames.join(' · ')} · ${texts.sizes} ${mine.slice(0, 5).join('-')} / ${mine.slice(5).join('-')}`);
    await expect(page.getByText(texts.shipsBy)).toBeVisible();
    expect(await hasHorizontalScroll(page)).toBe(false);
    const cart = (await (await page.request.get('/api/cart')).json()) as { items: { productId: string; choices: { sizes: number[] | null; options: Record<string, string> } }[] };
    expect(cart.items).toEqual([expect.objectContaining({ productId: first!.id, choices: expect.objectContaining({ sizes: mine }) })]);

    // Checkout names the set as one the right of withdrawal does not cover, before she accepts the terms.
    await page.goto('/checkout');
    await expect(page.getByText(`${name}${texts.notReturnable}`, { exact: true })).toBeVisible();

    // "My nail sizes" in the profile, saved once.
    await page.goto('/profile');
    const section = page.getByRole('region', { name: texts.mySizes });
    await expect(section.getByRole('group', { name: texts.hands[0], exact: true }).getByRole('combobox', { name: texts.fingers[0], exact: true })).toBeVisible();
    await chooseSizes(page, language, mine);
    await section.getByRole('button', { name: texts.save }).click();
    await expect(page.getByRole('status').filter({ hasText: texts.saved })).toBeVisible();
    expect(((await (await page.request.get('/api/account/nail-sizes')).json()) as { sizes: number[] | null }).sizes).toEqual(mine);

    // Reordering another sized set: her sizes are already there.
    await page.goto(`/product/${second!.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: textIn(second!.name, language) })).toBeVisible();
    await expect(page.getByText(texts.filledIn)).toBeVisible();
    await expectSizes(page, language, mine);
    expect(await hasHorizontalScroll(page)).toBe(false);
  });
}
