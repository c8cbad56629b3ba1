import { readFile } from 'node:fs/promises';
import { extractText, getDocumentProxy } from 'unpdf';
import type { CartResponse } from '#shared/cart.js';
import { formatMinor } from '#shared/money.js';
import { priceLines } from '#shared/pricing.js';
import type { Order } from '#shared/orders.js';
import { bulgarianAmountInWords } from '#server/invoices/amount-in-words.js';
import { Auditor } from './accessibility.js';
import { acceptTerms } from './checkout-steps.js';
import { clientAddressHeader, expect, hasHorizontalScroll, SHOP_ADMIN_EMAIL, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';

const key = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`.padEnd(20, '0');

test('a company buyer asks for an invoice at checkout in Bulgarian, pays, and downloads the PDF with its number, ЕИК and total; the admin exports the month and corrects the invoice’s buyer', async ({ page, inbox, browser, baseURL }, testInfo) => {
  const audit = new Auditor(page, testInfo);
  const buyerEmail = uniqueEmail('salon');
  await page.goto('/');
  await signIn(page, inbox, buyerEmail);
  await page.getByRole('button', { name: 'Български' }).click();
  // The address and the cart through the API: the checkout's own parts are what this test is about.
  const productId = (await (await page.request.get('/api/products')).json()).products[0].id as string;
  await page.request.post('/api/addresses', { data: { fullName: 'Мария Иванова', streetAddress: 'ул. Шипка 7', city: 'София', postalCode: '1504', country: 'BG', phone: '0888 123 456' } });
  const cart = (await (await page.request.post('/api/cart/operations', { data: { operations: [{ id: key(), type: 'add', productId }] } })).json()) as CartResponse;
  const total = priceLines(cart.items, undefined, 'card').total;

  await page.goto('/checkout');
  await expect(page.getByRole('heading', { name: 'Поръчка', exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Искам фактура' }).check();
  await expect(page.getByRole('radio', { name: 'Фирма' })).toBeChecked();
  await page.getByLabel('Име на фирмата').fill('Салон Красота ООД');
  await page.getByLabel('ЕИК').fill('123456789');
  await page.getByLabel('ДДС номер').fill('BG123456786');
  await page.getByLabel('МОЛ').fill('Мария Иванова');
  await page.getByLabel('Адрес по регистрация').fill('ул. Шипка 7, 1504 София');
  await page.getByRole('radio', { name: /Карта/ }).check();
  await acceptTerms(page);
  expect(await hasHorizontalScroll(page)).toBe(false);

  // A typing error in the ЕИК is caught before anything is placed, under its field, which takes the focus.
  await page.getByRole('button', { name: 'Потвърдете поръчката' }).click();
  const uic = page.getByLabel('ЕИК');
  await expect(page.getByRole('alert').filter({ hasText: 'контролната цифра на този не е вярна' })).toBeVisible();
  await expect(uic).toBeFocused();
  await expect(uic).toHaveAttribute('aria-invalid', 'true');
  await audit.check('checkout: invoice details with an error');
  expect((await (await page.request.get('/api/orders')).json()).orders).toEqual([]);
  await uic.fill('123 456 786');
  await page.getByRole('button', { name: 'Потвърдете поръчката' }).click();
  const created = page.getByRole('dialog').filter({ hasText: /Поръчка № NA-[A-Z2-9]{8} е създадена/ });
  const orderId = /(NA-[A-Z2-9]{8})/.exec((await created.textContent())!)![1]!;
  await created.getByRole('button', { name: 'Добре', exact: true }).click();

  // Paid through the simulated provider's API (the card form is walked in checkout.spec.ts).
  const paid = await page.request.post(`/api/orders/${orderId}/payment`, { data: { method: 'card', cardLast4: '4242' } });
  expect(paid.status()).toBe(200);
  expect(((await paid.json()) as { order: Order }).order.invoiceBuyer).toMatchObject({ kind: 'company', uic: '123456786', vatNumber: 'BG123456786' });

  await page.goto(`/profile?order=${orderId}`);
  const orderCard = page.getByRole('listitem', { name: new RegExp(orderId) });
  await orderCard.getByText('Фактури и документи').click();
  const link = orderCard.getByRole('link', { name: /^Изтегляне \(PDF\): Фактура № \d{10}$/ });
  await expect(link).toBeVisible();
  await audit.check('profile: an order’s documents');
  const number = /№ (\d{10})/.exec((await link.getAttribute('aria-label'))!)![1]!;
  const downloading = page.waitForEvent('download');
  await link.click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`invoice-${number}.pdf`);
  const pdf = await getDocumentProxy(new Uint8Array(await readFile((await download.path())!)));
  const text = (await extractText(pdf, { mergePages: true })).text.replace(/\s+/g, ' ');
  expect(text).toContain('ФАКТУРА');
  expect(text).toContain(`Номер: ${number}`);
  expect(text).toContain('ЕИК: 123456786');
  expect(text).toContain('Салон Красота ООД');
  expect(text).toContain(`Сума за плащане ${formatMinor(total, 'bg')} лв.`);
  expect(text).toContain(`Словом: ${bulgarianAmountInWords(total, 'BGN')}`);
  // The demo seller has no VAT number: the invoice charges no VAT and says why.
  expect(text).toContain('чл. 113, ал. 9 от ЗДДС');

  // The next checkout fills the details in from this invoice.
  await page.request.post('/api/cart/operations', { data: { operations: [{ id: key(), type: 'add', productId }] } });
  await page.goto('/checkout');
  await page.getByRole('checkbox', { name: 'Искам фактура' }).check();
  await expect(page.getByLabel('ЕИК')).toHaveValue('123456786');
  await expect(page.getByLabel('МОЛ')).toHaveValue('Мария Иванова');
  await audit.report();

  // The admin's monthly files: this shop has no НАП number, which the audit file needs and says so;
  // the accountant's CSV holds the invoice.
  const adminContext = await browser.newContext({ baseURL, extraHTTPHeaders: clientAddressHeader() });
  const admin = await adminContext.newPage();
  await admin.goto('/');
  await signIn(admin, inbox, SHOP_ADMIN_EMAIL);
  await admin.goto('/admin?tab=orders');
  await admin.getByText('Monthly files for НАП and the accountant').click();
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Sofia', year: 'numeric', month: '2-digit' }).format(new Date());
  await admin.getByLabel('Month').fill(month);
  await admin.getByRole('button', { name: 'НАП audit file (XML)' }).click();
  await expect(admin.getByRole('alert')).toHaveText("The shop's number in the НАП register (SHOP_NAP_NUMBER) is not set, and the audit file needs it.");
  const exporting = admin.waitForEvent('download');
  await admin.getByRole('button', { name: "Accountant's export (CSV)" }).click();
  const exported = await exporting;
  expect(exported.suggestedFilename()).toBe(`accounting-${month}.csv`);
  const csv = await readFile((await exported.path())!, 'utf8');
  expect(csv).toContain(`invoice,${number},`);
  expect(csv).toContain('Салон Красота ООД,123456786,BG123456786');
  // The orders of this month so far, for the accountant, in the admin's language.
  await admin.getByText('Orders for the accountant').click();
  const ordering = admin.waitForEvent('download');
  await admin.getByRole('button', { name: 'Orders (CSV)' }).click();
  const ordersFile = await ordering;
  expect(ordersFile.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-01-\d{4}-\d{2}-\d{2}\.csv$/);
  const ordersCsv = await readFile((await ordersFile.path())!, 'utf8');
  expect(ordersCsv).toContain('Order,Ordered at,Paid at,Status');
  expect(ordersCsv).toContain(`${orderId},`);

  // The company's name was misspelt: the admin corrects the invoice, by a credit note and a new invoice.
  await admin.goto(`/admin?tab=orders&order=${orderId}`);
  await admin.getByText('Invoices and documents').click();
  await admin.getByRole('button', { name: "Correct the invoice's buyer" }).click();
  await expect(admin.getByLabel('Company name')).toHaveValue('Салон Красота ООД');
  await admin.getByLabel('Company name').fill('Салон Красота и Стил ООД');
  await admin.getByRole('button', { name: 'Issue the corrected invoice' }).click();
  await expect(admin.getByRole('status').filter({ hasText: 'The credit note and the corrected invoice were issued' })).toBeVisible();
  const next = (offset: number) => String(Number(number) + offset).padStart(10, '0');
  await expect(admin.getByRole('link', { name: `Download (PDF): Credit note ${next(1)}` })).toBeVisible();
  await expect(admin.getByRole('link', { name: `Download (PDF): Invoice ${next(2)}` })).toBeVisible();
  const corrected = await inbox.waitForMail(buyerEmail, 15_000, (mail) => mail.subject.startsWith('Коригирана фактура'));
  expect(corrected.attachments.map((file) => file.filename)).toEqual([`credit-note-${next(1)}.pdf`, `invoice-${next(2)}.pdf`]);
  await adminContext.close();
});

test('a buyer who did not ask at checkout asks for an invoice from her paid order, is stopped by a wrong ЕИК, and gets it on the page and by e-mail', async ({ page, inbox }, testInfo) => {
  const audit = new Auditor(page, testInfo);
  const email = uniqueEmail('later');
  await page.goto('/');
  await signIn(page, inbox, email);
  const productId = (await (await page.request.get('/api/products')).json()).products[0].id as string;
  await page.request.post('/api/addresses', { data: { fullName: 'Ana Petrova', streetAddress: '7 Shipka St', city: 'Sofia', postalCode: '1504', country: 'BG', phone: '0888 123 456' } });
  const cart = (await (await page.request.post('/api/cart/operations', { data: { operations: [{ id: key(), type: 'add', productId }] } })).json()) as CartResponse;
  const total = priceLines(cart.items, undefined, 'card').total;
  const placed = await page.request.post('/api/orders', { data: { idempotencyKey: key(), paymentMethod: 'card', expectedTotalMinor: total, acceptTerms: true, language: 'en' } });
  const { orderId } = ((await placed.json()) as { order: Order }).order;
  expect((await page.request.post(`/api/orders/${orderId}/payment`, { data: { method: 'card', cardLast4: '4242' } })).status()).toBe(200);

  await page.goto(`/profile?order=${orderId}`);
  const orderCard = page.getByRole('listitem', { name: new RegExp(orderId) });
  await orderCard.getByText('Invoices and documents').click();
  await expect(orderCard.getByText(/^You can ask for an invoice until /)).toBeVisible();
  await orderCard.getByRole('button', { name: 'Ask for an invoice' }).click();
  await orderCard.getByLabel('Company name').fill('Beauty Salon Ltd');
  await orderCard.getByLabel('Company number (ЕИК)').fill('123456789');
  await orderCard.getByLabel('Responsible person (МОЛ)').fill('Ana Petrova');
  await orderCard.getByLabel('Registered address').fill('7 Shipka St, 1504 Sofia');
  expect(await hasHorizontalScroll(page)).toBe(false);
  await orderCard.getByRole('button', { name: 'Ask for the invoice' }).click();
  const uic = orderCard.getByLabel('Company number (ЕИК)');
  await expect(orderCard.getByRole('alert')).toContainText('check digit is wrong');
  await expect(uic).toBeFocused();
  await audit.check('profile: asking for an invoice, with an error');

  await uic.fill('123456786');
  await orderCard.getByRole('button', { name: 'Ask for the invoice' }).click();
  await expect(orderCard.getByRole('status')).toHaveText('Your invoice has been issued. We have also e-mailed it to you.');
  const link = orderCard.getByRole('link', { name: /^Download \(PDF\): Invoice \d{10}$/ });
  await expect(link).toBeVisible();
  await expect(orderCard.getByRole('button', { name: 'Ask for an invoice' })).toHaveCount(0);
  await audit.check('profile: the invoice asked for');
  const number = /(\d{10})$/.exec((await link.getAttribute('aria-label'))!)![1]!;
  const mail = await inbox.waitForMail(email, 15_000, (received) => received.subject.startsWith('Invoice No.'));
  expect(mail.subject).toBe(`Invoice No. ${number} for order #${orderId}`);
  expect(mail.attachments.map((file) => file.filename)).toEqual([`invoice-${number}.pdf`, `invoice-${number}-en.pdf`]);
  await audit.report();
});
