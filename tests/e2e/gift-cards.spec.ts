import type { Page } from '@playwright/test';
import type { Product } from '#shared/catalog.js';
import { Auditor } from './accessibility.js';
import { acceptTerms } from './checkout-steps.js';
import { createProduct } from './shop-api.js';
import { expect, hasHorizontalScroll, SHOP_ADMIN_EMAIL, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';

// The owner issues a gift card by hand in the admin and gives its code to a friend, who pays with it at
// checkout: first for part of an order (the rest by card), then, with what is left, for a whole one.
// In English on the desktop and in Bulgarian on the phone.

const TEXTS = {
  en: {
    tab: 'Gift cards',
    amount: 'Amount',
    note: 'Note (whom it is for)',
    issue: 'Issue gift card',
    issued: 'Gift card issued.',
    field: 'Gift card',
    use: 'Use',
    unknown: 'There is no such gift card. Please check its code.',
    // A word joiner keeps the ending on the line of the ellipsis.
    line: (ending: string) => `Gift card …\u2060${ending}`,
    due: 'To pay',
    placeOrder: 'Place Order',
    ok: 'OK',
    paidWhole: 'created and paid with your gift card',
    refused: 'Your gift card no longer pays what it did.',
    money: (text: string) => `BGN ${text}`,
    sentByMail: 'A gift card of this value, sent to you by e-mail as soon as your order is paid.',
  },
  bg: {
    tab: 'Карти за подарък',
    amount: 'Стойност',
    note: 'Бележка (за кого е)',
    issue: 'Издайте карта за подарък',
    issued: 'Картата за подарък е издадена.',
    field: 'Карта за подарък',
    use: 'Използвайте',
    unknown: 'Няма такава карта за подарък. Проверете кода ѝ.',
    line: (ending: string) => `Карта за подарък …\u2060${ending}`,
    due: 'За плащане',
    placeOrder: 'Потвърдете поръчката',
    ok: 'Добре',
    paidWhole: 'създадена и платена с картата ви за подарък',
    refused: 'Картата ви за подарък вече не покрива същата сума.',
    money: (text: string) => `BGN ${text.replace('.', ',')}`,
    sentByMail: 'Карта за подарък на тази стойност, която ви изпращаме по имейл веднага щом поръчката бъде платена.',
  },
};

const setLanguage = (page: Page, language: 'en' | 'bg') => page.context().addInitScript((chosen) => localStorage.setItem('language', chosen), language);

test('the owner issues a gift card, and its recipient pays part of one order with it and the whole of the next', async ({ page, browser, inbox, adminApi, shop }, testInfo) => {
  const language = testInfo.project.name === 'phone' ? 'bg' : 'en';
  const words = TEXTS[language];
  const product: Product = await createProduct(adminApi, `Gift Set ${testInfo.project.name} ${Date.now() % 100_000}`, '40.00');
  await setLanguage(page, language);
  const audit = new Auditor(page, testInfo);

  // The owner issues a card of 50.00 and reads its code, shown this once.
  await page.goto('/');
  await signIn(page, inbox, SHOP_ADMIN_EMAIL);
  await page.goto('/admin');
  await page.getByRole('tab', { name: words.tab }).click();
  await expect(page).toHaveURL(/tab=gift-cards/);
  await page.getByLabel(words.amount).fill('0');
  await page.getByRole('button', { name: words.issue }).click();
  await expect(page.getByLabel(words.amount)).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel(words.amount).fill('50');
  await page.getByLabel(words.note).fill('For Maria');
  await page.getByRole('button', { name: words.issue }).click();
  await expect(page.getByRole('status').filter({ hasText: words.issued })).toBeVisible();
  const code = (await page.locator('.gift-card-issued__code').textContent())!;
  expect(code).toMatch(/^[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
  const ending = code.slice(-4);
  await expect(page.getByRole('row', { name: new RegExp(`…${ending}`) })).toContainText('For Maria');
  expect(await hasHorizontalScroll(page)).toBe(false);
  await audit.check('gift cards');

  // The recipient, in a browser of her own, with a product of 40.00 in her cart.
  const buyerContext = await browser.newContext({ baseURL: shop.baseURL, viewport: page.viewportSize()!, extraHTTPHeaders: { 'x-forwarded-for': `10.79.0.${testInfo.workerIndex + 1}` } });
  await buyerContext.addInitScript((chosen) => localStorage.setItem('language', chosen), language);
  const buyer = await buyerContext.newPage();
  await buyer.goto('/');
  await signIn(buyer, inbox, uniqueEmail('gift-recipient'));
  expect((await buyer.request.post('/api/addresses', { data: { fullName: 'Мария Иванова', streetAddress: 'ул. Шипка 6', city: 'София', postalCode: '1504', country: 'BG', phone: '+359888123456' } })).ok()).toBe(true);
  const addToCart = async (quantity: number) => {
    const operations = Array.from({ length: quantity }, (_, index) => ({ id: `gift${Date.now()}${index}`.padEnd(20, '0'), type: 'add', productId: product.id }));
    expect((await buyer.request.post('/api/cart/operations', { data: { operations } })).ok()).toBe(true);
  };
  await addToCart(2);
  await buyer.goto('/checkout');
  const field = buyer.getByLabel(words.field, { exact: true });
  await field.fill('AAAA-BBBB-CCCC-DDDD');
  await buyer.getByRole('button', { name: words.use }).click();
  await expect(buyer.getByText(words.unknown)).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');

  // Two sets of 40.00 with 5% tax and 5.99 shipping: 89.99, of which the card pays 50.00.
  await field.fill(code.toLowerCase());
  await buyer.getByRole('button', { name: words.use }).click();
  const summary = buyer.locator('.pricing');
  await expect(summary.locator('.pricing__row').filter({ hasText: words.line(ending) })).toContainText(`−${words.money('50.00')}`);
  await expect(summary.locator('.pricing__row').filter({ hasText: words.due })).toContainText(words.money('39.99'));
  await audit.check('checkout with a gift card');
  // Each order below empties the card it uses: the page asks no more about a card its own order has
  // just used, to be refused (the cart's change may reach the page before the order's answer).
  const refusedCardChecks: string[] = [];
  buyer.on('response', (response) => {
    if (new URL(response.url()).pathname !== '/api/gift-cards/check' || response.status() < 400) return;
    // Which card, and on which page, so that a failure says where the page asked.
    const card = (JSON.parse(response.request().postData() ?? '{}') as { code?: string }).code?.slice(-4);
    refusedCardChecks.push(`${response.status()} for …${card} on ${new URL(buyer.url()).pathname}`);
  });
  await acceptTerms(buyer);
  // As on a slow phone: the page's renders and effects lag behind the server's answer and notices.
  // (Before the check read `placing` as it ran, 3 runs of 4 here asked about the card just emptied.)
  const slowDevice = await buyerContext.newCDPSession(buyer);
  await slowDevice.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  await buyer.getByRole('button', { name: words.placeOrder }).click();
  const created = buyer.getByRole('dialog');
  const firstOrderId = /(NA-[A-Z2-9]{8})/.exec((await created.textContent())!)![1]!;
  await slowDevice.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await created.getByRole('button', { name: words.ok }).click();
  const firstCard = buyer.getByRole('listitem', { name: new RegExp(firstOrderId) });
  await expect(firstCard.locator('.pricing__row').filter({ hasText: words.line(ending) })).toContainText(`−${words.money('50.00')}`);
  await expect(firstCard.locator('.pricing__row').filter({ hasText: words.due })).toContainText(words.money('39.99'));

  // A second card, of 100.00, pays the whole of her next order.
  await page.getByLabel(words.amount).fill('100');
  await page.getByRole('button', { name: words.issue }).click();
  await expect(page.locator('.gift-card-issued__code')).not.toHaveText(code);
  const secondCode = (await page.locator('.gift-card-issued__code').textContent())!;

  await addToCart(1);
  await buyer.goto('/checkout');
  await field.fill(secondCode);
  await buyer.getByRole('button', { name: words.use }).click();
  // 40.00 with 5% tax and 5.99 shipping: 47.99, all of it paid by the card.
  await expect(summary.locator('.pricing__row').filter({ hasText: words.due })).toContainText(words.money('0.00'));
  await acceptTerms(buyer);
  await buyer.getByRole('button', { name: words.placeOrder }).click();
  await expect(buyer.getByRole('dialog')).toContainText(words.paidWhole);
  await buyer.getByRole('dialog').getByRole('button', { name: words.ok }).click();
  await expect(buyer.getByRole('listitem', { name: new RegExp(firstOrderId) })).toBeVisible();
  expect(refusedCardChecks).toEqual([]);
  await buyerContext.close();

  // The owner's list shows what is left on each card.
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(`…${ending}`) })).toContainText(words.money('0.00'));
  await expect(page.getByRole('row', { name: new RegExp(`…${secondCode.slice(-4)}`) })).toContainText(words.money('52.01'));
  await audit.report();
});

test('a card that paid another order meanwhile is refused at checkout, and the page asks again and shows what it pays now', async ({ page, browser, inbox, adminApi, shop, allowConsoleErrors }, testInfo) => {
  const language = testInfo.project.name === 'phone' ? 'bg' : 'en';
  const words = TEXTS[language];
  const product: Product = await createProduct(adminApi, `Gift Set Shared ${testInfo.project.name} ${Date.now() % 100_000}`, '40.00');
  const issued = await adminApi.post('/api/admin/gift-cards', { data: { amountMinor: 5000, note: 'Shared' } });
  expect(issued.status()).toBe(201);
  const { code } = ((await issued.json()) as { card: { code: string } }).card;
  const ending = code.slice(-4);

  // Two buyers with the same card in their checkouts: 40.00 with 5% tax and 5.99 shipping, 47.99, all of it paid by the card.
  const otherContext = await browser.newContext({ baseURL: shop.baseURL, viewport: page.viewportSize()!, extraHTTPHeaders: { 'x-forwarded-for': `10.79.1.${testInfo.workerIndex + 1}` } });
  const buyers = [page, await otherContext.newPage()];
  for (const [index, buyer] of buyers.entries()) {
    await setLanguage(buyer, language);
    await buyer.goto('/');
    await signIn(buyer, inbox, uniqueEmail('gift-sharer'));
    expect((await buyer.request.post('/api/addresses', { data: { fullName: 'Мария Иванова', streetAddress: 'ул. Шипка 6', city: 'София', postalCode: '1504', country: 'BG', phone: '+359888123456' } })).ok()).toBe(true);
    const operation = { id: `share${index}${Date.now()}`.padEnd(20, '0'), type: 'add', productId: product.id };
    expect((await buyer.request.post('/api/cart/operations', { data: { operations: [operation] } })).ok()).toBe(true);
    await buyer.goto('/checkout');
    await buyer.getByLabel(words.field, { exact: true }).fill(code);
    await buyer.getByRole('button', { name: words.use }).click();
    await expect(buyer.locator('.pricing .pricing__row').filter({ hasText: words.due })).toContainText(words.money('0.00'));
    await acceptTerms(buyer);
  }

  // The other buyer places her order first: 2.01 is left on the card.
  const other = buyers[1]!;
  await other.getByRole('button', { name: words.placeOrder }).click();
  await expect(other.getByRole('dialog')).toContainText(words.paidWhole);
  await otherContext.close();

  // The first buyer's order, at the total she saw, is refused; her page asks about the card again and shows what it pays now.
  allowConsoleErrors(/status of 409 \(Conflict\) \(.*\/api\/orders\)/);
  await page.getByRole('button', { name: words.placeOrder }).click();
  await expect(page.getByText(words.refused)).toBeVisible();
  const summary = page.locator('.pricing');
  await expect(summary.locator('.pricing__row').filter({ hasText: words.line(ending) })).toContainText(`−${words.money('2.01')}`);
  await expect(summary.locator('.pricing__row').filter({ hasText: words.due })).toContainText(words.money('45.98'));
  const orders = (await (await page.request.get('/api/orders')).json()) as { orders: unknown[] };
  expect(orders.orders).toHaveLength(0);
});

test('a buyer buys a gift card: no shipping or tax on it, and its code arrives by e-mail once paid and pays for her next order', async ({ page, inbox, adminApi }, testInfo) => {
  const language = testInfo.project.name === 'phone' ? 'bg' : 'en';
  const words = TEXTS[language];
  const card: Product = await createProduct(adminApi, `Gift Card ${testInfo.project.name} ${Date.now() % 100_000}`, '30.00', undefined, 'gift-cards');
  await setLanguage(page, language);
  const email = uniqueEmail('gift-giver');
  await page.goto('/');
  await signIn(page, inbox, email);
  expect((await page.request.post('/api/addresses', { data: { fullName: 'Мария Иванова', streetAddress: 'ул. Шипка 6', city: 'София', postalCode: '1504', country: 'BG', phone: '+359888123456' } })).ok()).toBe(true);
  // Its page says how it comes, in place of a day to ship by.
  await page.goto(`/product/${card.slug}`);
  await expect(page.getByText(words.sentByMail)).toBeVisible();
  const add = async (productId: string) =>
    expect((await page.request.post('/api/cart/operations', { data: { operations: [{ id: `card${Date.now()}`.padEnd(20, '0'), type: 'add', productId }] } })).ok()).toBe(true);
  await add(card.id);

  // A card alone: its value and nothing else, neither tax nor shipping.
  await page.goto('/checkout');
  const summary = page.locator('.pricing');
  await expect(summary.locator('.pricing__row--total')).toContainText(words.money('30.00'));
  await acceptTerms(page);
  await page.getByRole('button', { name: words.placeOrder }).click();
  const created = page.getByRole('dialog');
  const orderId = /(NA-[A-Z2-9]{8})/.exec((await created.textContent())!)![1]!;
  await created.getByRole('button', { name: words.ok }).click();
  const order = (await (await page.request.get('/api/orders')).json()).orders.find((candidate: { orderId: string }) => candidate.orderId === orderId);
  expect(order.pricing).toMatchObject({ subtotal: 3000, tax: 0, shipping: 0, total: 3000 });
  // Paid (the simulated provider's answer, as its payment page would send it), the card is issued and its code sent.
  expect((await page.request.post(`/api/orders/${orderId}/payment`, { data: { method: order.paymentMethod } })).ok()).toBe(true);
  const mail = await inbox.waitForMail(email, 15_000, (message) => message.subject.includes(orderId) && /gift cards|карти за подарък/.test(message.subject));
  const code = /([A-Z2-9]{4}(?:-[A-Z2-9]{4}){3})/.exec(mail.text)![1]!;

  // Her next order, paid with the card she bought.
  const product: Product = await createProduct(adminApi, `Gift Set ${testInfo.project.name} ${Date.now() % 100_000}`, '20.00');
  await add(product.id);
  await page.goto('/checkout');
  await page.getByLabel(words.field, { exact: true }).fill(code);
  await page.getByRole('button', { name: words.use }).click();
  // 20.00 with 5% tax and 5.99 shipping: 26.99, all of it paid by the card.
  await expect(summary.locator('.pricing__row').filter({ hasText: words.line(code.slice(-4)) })).toContainText(`−${words.money('26.99')}`);
  await expect(summary.locator('.pricing__row').filter({ hasText: words.due })).toContainText(words.money('0.00'));
});
