import sharp from 'sharp';
import { auditPage } from './accessibility.js';
import { createProduct, placeOrderThroughApi, setOrderStatus } from './shop-api.js';
import { expect, SHOP_ADMIN_EMAIL, test, uniqueEmail } from './shop-fixtures.js';
import { signIn, signInRequest } from './sign-in-steps.js';

// A delivered buyer reviews what she bought, with a photo; the admin approves and answers; the
// product page shows the rating and the review, and its structured data carries them.

const TEXTS = {
  en: {
    write: (name: string) => `Write a review of ${name}`,
    send: 'Send review',
    ratingError: 'Choose from 1 to 5 stars.',
    star: '4 stars',
    textLabel: 'Your review',
    photos: 'Photos (optional)',
    thanks: 'Thank you! Your review will appear once the shop has read it.',
    cancel: 'Cancel',
    summary: '4 out of 5, from 1 review',
    reply: 'Reply from the shop',
  },
  bg: {
    write: (name: string) => `Напишете отзив за ${name}`,
    send: 'Изпратете отзива',
    ratingError: 'Изберете от 1 до 5 звезди.',
    star: '4 звезди',
    textLabel: 'Вашият отзив',
    photos: 'Снимки (по желание)',
    thanks: 'Благодарим ви! Отзивът ще се появи, след като магазинът го прочете.',
    cancel: 'Отказ',
    summary: '4 от 5 според 1 отзив',
    reply: 'Отговор от магазина',
  },
} as const;

for (const language of ['en', 'bg'] as const) {
  const texts = TEXTS[language];
  test(`a delivered buyer reviews with a photo, the admin approves and answers, and the product page shows the rating [${language}]`, async ({ page, browser, inbox, adminApi }) => {
    const product = await createProduct(adminApi, `Reviewed Chrome Set ${language} ${Date.now()}`, '24.00', 5);
    const email = uniqueEmail(`reviewer-${language}`);
    await page.goto(language === 'bg' ? '/?lang=bg' : '/');
    await signInRequest(page.request, inbox, email);
    const order = await placeOrderThroughApi(page.request, product.id, 'pay_by_link');
    await setOrderStatus(adminApi, order.orderId, 'delivered');

    await page.goto(`/profile?order=${order.orderId}${language === 'bg' ? '&lang=bg' : ''}`);
    const write = page.getByRole('button', { name: texts.write(product.name.en) });
    await write.click();
    const form = page.getByRole('form');
    // Cancelled, the form gives the focus back to the button that opened it.
    await form.getByRole('button', { name: texts.cancel }).click();
    await expect(write).toBeFocused();
    await write.click();
    // Sent without stars: said so, and the first star takes the focus.
    await form.getByRole('button', { name: texts.send }).click();
    await expect(form.getByRole('alert')).toHaveText(texts.ratingError);
    const audit = await auditPage(page, `review form, refused [${language}]`);
    expect(audit.problems).toEqual([]);

    await form.getByRole('radio', { name: texts.star }).check();
    const words = language === 'bg' ? 'Стоят перфектно, издържаха две седмици.' : 'Fit perfectly and lasted two weeks.';
    await form.getByRole('textbox', { name: texts.textLabel, exact: true }).fill(words);
    const photo = await sharp({ create: { width: 600, height: 600, channels: 3, background: { r: 220, g: 90, b: 150 } } }).jpeg().toBuffer();
    await form.getByLabel(texts.photos).setInputFiles({ name: 'my-nails.jpg', mimeType: 'image/jpeg', buffer: photo });
    await form.getByRole('button', { name: texts.send }).click();
    await expect(page.getByRole('status').filter({ hasText: texts.thanks })).toBeVisible();

    // The admin approves it with an answer, in the dashboard.
    const adminPage = await browser.newPage({ baseURL: new URL(page.url()).origin });
    await adminPage.goto('/');
    await signIn(adminPage, inbox, SHOP_ADMIN_EMAIL);
    await adminPage.goto('/admin?tab=reviews');
    const item = adminPage.getByRole('listitem').filter({ hasText: words });
    await expect(item.getByRole('img', { name: /^4/ })).toBeVisible();
    await item.getByRole('textbox').fill('Thank you, Petya!');
    await item.getByRole('button', { name: 'Approve' }).click();
    await expect(adminPage.getByRole('status').filter({ hasText: 'The review is now on the product page.' })).toBeVisible();
    await adminPage.close();

    // A visitor's product page: the rating, the review in its words with the photo, the shop's answer.
    const visitor = await browser.newPage({ baseURL: new URL(page.url()).origin });
    await visitor.goto(`/product/${product.slug}${language === 'bg' ? '?lang=bg' : ''}`);
    const reviews = visitor.getByRole('region', { name: language === 'bg' ? 'Отзиви' : 'Reviews' });
    await expect(reviews).toContainText(texts.summary);
    await expect(reviews.getByText(words)).toBeVisible();
    await expect(reviews.getByText(texts.reply)).toBeVisible();
    await expect(reviews.getByText('Thank you, Petya!')).toBeVisible();
    const shown = reviews.getByRole('img', { name: /Petya/ });
    await expect(shown).toBeVisible();
    expect(await shown.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
    expect(await reviews.textContent()).not.toContain(email);
    // The page's structured data, as the server sent it and as the app keeps it.
    const structured = await visitor.locator('script[type="application/ld+json"]').allTextContents();
    expect(structured.join('\n')).toContain('"aggregateRating":{"@type":"AggregateRating","ratingValue":4,"reviewCount":1');
    const reviewsAudit = await auditPage(visitor, `product page with a review [${language}]`);
    expect(reviewsAudit.problems).toEqual([]);
    await visitor.close();
  });
}
