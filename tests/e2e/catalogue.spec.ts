import type { Locator, Page } from '@playwright/test';
import { addPhoto, createProduct } from './shop-api.js';
import { expect, signedInPage, test, uniqueEmail } from './shop-fixtures.js';
import { signIn } from './sign-in-steps.js';
import { auditPage } from './accessibility.js';

// Browsing: categories, search and sort live in the address (links, reload and Back show the same
// view); each product has a page with a gallery used by keyboard and touch.

const cardNames = (page: Page) => page.getByRole('article').getByRole('heading', { level: 3 });
const categories = (page: Page) => page.getByRole('group', { name: 'Categories' });
const searchBox = (page: Page) => page.getByRole('combobox', { name: 'Search products' });

test('filters by category, searches and sorts through the address, and Back and reload keep each view', async ({ page }) => {
  await page.goto('/');
  await categories(page).getByRole('button', { name: 'Kits' }).click();
  await expect(page).toHaveURL(/\/\?category=kits$/);
  await expect(categories(page).getByRole('button', { name: 'Kits' })).toHaveAttribute('aria-pressed', 'true');
  await expect(cardNames(page)).toHaveText(['Blossom Gift Box', 'Deluxe Nail Artist Kit', 'Nail Sizing Kit', 'Press-On Starter Kit']);

  await page.getByLabel('Sort by').selectOption({ label: 'Price: high to low' });
  await expect(page).toHaveURL(/\/\?category=kits&sort=price-desc$/);
  await expect(cardNames(page)).toHaveText(['Deluxe Nail Artist Kit', 'Blossom Gift Box', 'Press-On Starter Kit', 'Nail Sizing Kit']);

  await page.reload();
  await expect(page.getByLabel('Sort by')).toHaveValue('price-desc');
  await expect(cardNames(page)).toHaveText(['Deluxe Nail Artist Kit', 'Blossom Gift Box', 'Press-On Starter Kit', 'Nail Sizing Kit']);

  await page.goBack();
  await expect(page).toHaveURL(/\/\?category=kits$/);
  await expect(cardNames(page)).toHaveText(['Blossom Gift Box', 'Deluxe Nail Artist Kit', 'Nail Sizing Kit', 'Press-On Starter Kit']);

  // A few letters find a product by its name or description, whatever the case.
  await categories(page).getByRole('button', { name: 'All' }).click();
  await searchBox(page).fill('PEARL');
  await expect(page).toHaveURL(/\/\?q=PEARL$/);
  await expect(cardNames(page)).toHaveText(['Blush Pearl Almond Set', 'Pearl Keepsake Storage Box']);
  await expect(page.getByRole('status').filter({ hasText: 'products' })).toHaveText('2 products');

  await searchBox(page).fill('no such thing %_');
  await expect(page.getByText('No products match your search.')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(searchBox(page)).toHaveValue('');
  expect(await cardNames(page).count()).toBeGreaterThanOrEqual(14);

  // Typing replaces the address as it goes: Back returns to the whole search, then to the view before it.
  await page.goBack();
  await expect(searchBox(page)).toHaveValue('no such thing %_');
  await page.goBack();
  await expect(page).toHaveURL(/\/\?category=kits$/);
});

test('a letter typed while the search so far is on its way to the address stays in the box and reaches the search', async ({ page }) => {
  // The page's timers (the typing pause, the frame after which the app reads the address) run on
  // Playwright's clock, so that the letter comes between the search being sent and the address being read,
  // as it does when a slow phone's next key press comes in that frame.
  await page.clock.install();
  await page.goto('/');
  await expect(cardNames(page).first()).toBeVisible();
  await page.clock.pauseAt(Date.now() + 10_000);
  const box = searchBox(page);
  await box.press('r');
  await page.clock.runFor(350);
  await expect(page).toHaveURL(/[?&]q=r(&|$)/);
  await box.press('h');
  await page.clock.runFor(100);
  await expect(box).toHaveValue('rh');
  await page.clock.runFor(350);
  await expect(page).toHaveURL(/[?&]q=rh(&|$)/);
  await expect(box).toHaveValue('rh');
});

test('searches in Bulgarian in the Bulgarian interface, which shows the Bulgarian names', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Български' }).click();
  const search = page.getByRole('combobox', { name: 'Търсене на продукти' });
  // "перли" finds the set named "перла" first, and the box named "Перлена", with its best matches first.
  await search.fill('перли');
  await expect(cardNames(page).first()).toHaveText('Комплект бадемовидни нокти „Розова перла“');
  // The suggestions under the box say the same; Escape closes them and keeps the search.
  await expect(page.getByRole('listbox', { name: 'Предложения за търсене' }).getByRole('option').first()).toHaveText('Комплект бадемовидни нокти „Розова перла“');
  await search.press('Escape');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(search).toHaveValue('перли');
  await expect(cardNames(page)).toContainText(['Перлена кутия за съхранение']);
  await expect(page.getByRole('combobox', { name: 'Подреждане' })).toHaveValue('relevance');
  await page.getByRole('group', { name: 'Категории' }).getByRole('button', { name: 'Аксесоари' }).click();
  await expect(cardNames(page)).toHaveText(['Перлена кутия за съхранение']);
  await search.fill('мотоциклет');
  await expect(page.getByText('Няма продукти, които да отговарят на търсенето.')).toBeVisible();
});

test('suggests products as the buyer types, even with a typo, chosen by keyboard, and offers a search that finds something when hers does not', async ({ page }) => {
  await page.goto('/');
  const box = searchBox(page);
  await box.pressSequentially('stilleto');
  const suggestions = page.getByRole('listbox', { name: 'Search suggestions' });
  await expect(suggestions.getByRole('option').first()).toHaveText('Cherry Blossom Stilettos');
  await expect(box).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Use the up and down arrows' })).toHaveText(/^\d+ suggestions?\. /);
  const audit = await auditPage(page, 'search suggestions');
  expect(audit.problems).toEqual([]);

  // Down to the first, up back to the box, down again, and Enter opens the product's page.
  await box.press('ArrowDown');
  const first = suggestions.getByRole('option').first();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await expect(box).toHaveAttribute('aria-activedescendant', (await first.getAttribute('id'))!);
  await box.press('ArrowUp');
  await expect(first).toHaveAttribute('aria-selected', 'false');
  await expect(box).not.toHaveAttribute('aria-activedescendant');
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/product\/cherry-blossom-stilettos$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cherry Blossom Stilettos');

  // In Bulgarian, a search that finds nothing is offered one that does, in the list and under the results.
  await page.goto('/?lang=bg');
  const bgBox = page.getByRole('combobox', { name: 'Търсене на продукти' });
  await bgBox.pressSequentially('rhinstne');
  await expect(page.getByText('Няма продукти, които да отговарят на търсенето.')).toBeVisible();
  await expect(page.getByRole('main').getByRole('button', { name: 'Имахте предвид „rhinestone“?' })).toBeVisible();
  const offer = page.getByRole('listbox', { name: 'Предложения за търсене' }).getByRole('option');
  await expect(offer).toHaveText(['Имахте предвид „rhinestone“?']);
  await bgBox.press('ArrowDown');
  await bgBox.press('Enter');
  await expect(bgBox).toHaveValue('rhinestone');
  await expect(page).toHaveURL(/[?&]q=rhinestone(&|$)/);
  await expect(cardNames(page).first()).toHaveText('Кристали за нокти във въртяща се кутийка');
  await expect(page.getByRole('listbox')).toBeHidden();
});

test('the admin writes search synonyms in Bulgarian, a line she could not mean is refused by its number, and shoppers find by them', async ({ page, adminApi }) => {
  await page.context().addCookies((await adminApi.storageState()).cookies);
  await page.goto('/admin?tab=synonyms&lang=bg');
  const text = page.getByLabel('Групи синоними, по една на ред');
  await expect(text).toHaveValue('');
  await text.fill('манекен, измерване на ноктите\nтренажор');
  await page.getByRole('button', { name: 'Запазване на синонимите' }).click();
  await expect(page.getByRole('alert')).toHaveText('Ред 2: Групата има нужда от поне две думи или израза, разделени със запетаи.');
  await expect(text).toBeFocused();
  await expect(text).toHaveAttribute('aria-invalid', 'true');
  const audit = await auditPage(page, 'admin: search synonyms, refused');
  expect(audit.problems).toEqual([]);
  await text.fill('манекен, измерване на ноктите\n\nтренажор, practice hand');
  await page.getByRole('button', { name: 'Запазване на синонимите' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Синонимите са запазени.' })).toBeVisible();
  try {
    await page.goto('/?q=manekeni&lang=bg');
    await expect(cardNames(page).first()).toHaveText('Комплект за измерване на ноктите');
    await page.goto('/admin?tab=synonyms&lang=bg');
    await expect(text).toHaveValue('манекен, измерване на ноктите\nтренажор, practice hand');
  } finally {
    expect((await adminApi.put('/api/admin/search-synonyms', { data: { groups: [] } })).status()).toBe(200);
  }
});

test('on a sold-out piece a buyer asks in Bulgarian for a similar one, and the admin sees the request and marks it answered', async ({ page, adminApi }) => {
  const name = `Zz One-Off Set ${Date.now().toString(36)}`;
  const product = await createProduct(adminApi, name, '45.00', 0);
  await page.goto(`/product/${product.slug}?lang=bg`);
  const request = page.getByRole('region', { name: 'Изчерпано – можем да ви направим подобно' });
  await request.getByRole('button', { name: 'Поискайте подобно изделие' }).click();
  const email = request.getByLabel('Вашият имейл');
  await expect(email).toBeFocused();
  await email.fill('не е имейл');
  await request.getByRole('button', { name: 'Изпратете заявката' }).click();
  await expect(request.getByRole('alert')).toHaveText('Моля, въведете валиден имейл адрес.');
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  const audit = await auditPage(page, 'product page: a similar piece, refused');
  expect(audit.problems).toEqual([]);
  await email.fill('Maria@Example.com');
  await request.getByLabel('Какво бихте искали? (по желание)').fill('Същия, но в люляково.');
  await request.getByRole('button', { name: 'Изпратете заявката' }).click();
  await expect(request.getByRole('status')).toHaveText('Благодарим ви! Ще ви пишем на maria@example.com.');

  await page.context().addCookies((await adminApi.storageState()).cookies);
  await page.goto('/admin?tab=requests&lang=en');
  const lead = page.getByRole('list', { name: 'Open requests' }).getByRole('listitem').filter({ hasText: name });
  await expect(lead.getByRole('link', { name })).toHaveAttribute('href', `/product/${product.slug}`);
  await expect(lead).toContainText('maria@example.com');
  await expect(lead).toContainText('Същия, но в люляково.');
  await expect(lead).toContainText('Български');
  await lead.getByRole('button', { name: 'Mark the request of maria@example.com as answered' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The request is marked as answered.' })).toBeVisible();
  await expect(lead).toHaveCount(0);
});

test('on a sold-out product a visitor and a signed-in buyer ask to be told when it is back, and each gets one e-mail leading to it when the admin restocks', async ({ page, adminApi, inbox }) => {
  const name = `Zz Waiting Set ${Date.now().toString(36)}`;
  const product = await createProduct(adminApi, name, '28.00', 0);
  const visitor = uniqueEmail('waiting');
  await page.goto(`/product/${product.slug}`);
  const alert = page.getByRole('region', { name: 'Tell me when it is back' });
  const email = alert.getByLabel('Your e-mail');
  await email.fill('not an address');
  await alert.getByRole('button', { name: 'Tell me when it is back' }).click();
  await expect(alert.getByRole('alert')).toHaveText('Please enter a valid e-mail address.');
  await expect(email).toBeFocused();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  const audit = await auditPage(page, 'product page: back in stock, refused');
  expect(audit.problems).toEqual([]);
  await email.fill(visitor.toUpperCase());
  await email.press('Enter');
  await expect(alert.getByRole('status')).toHaveText(`Done! We will write to ${visitor} when it is back.`);

  // Signed in, in Bulgarian: one click, for her account's address.
  const buyer = uniqueEmail('waiting-buyer');
  await signIn(page, inbox, buyer);
  await page.goto(`/product/${product.slug}?lang=bg`);
  const signedInAlert = page.getByRole('region', { name: 'Пишете ми, когато е отново в наличност' });
  await expect(signedInAlert).toContainText(`Ще ви пишем на ${buyer} веднъж`);
  await expect(signedInAlert.getByRole('textbox')).toHaveCount(0);
  await signedInAlert.getByRole('button', { name: 'Уведомете ме' }).click();
  await expect(signedInAlert.getByRole('status')).toHaveText(`Готово! Ще ви пишем на ${buyer}, когато продуктът е отново в наличност.`);

  // The admin counts new pieces: the open page offers it at once, and each of them hears once.
  const restocked = await adminApi.put(`/api/admin/products/${product.id}`, {
    multipart: { nameEn: name, descriptionEn: 'Back soon.', price: '28.00', category: 'nails', stock: '3', stockSeen: '0' },
  });
  expect(restocked.status(), await restocked.text()).toBe(200);
  await expect(page.getByRole('button', { name: `Добавете в количката: ${name}` })).toBeVisible();
  await expect(signedInAlert).toHaveCount(0);
  const toBuyer = await inbox.waitForMail(buyer);
  expect(toBuyer.subject).toBe(`„${name}“ отново е в наличност в Nail Art Atelier`);
  const toVisitor = await inbox.waitForMail(visitor);
  expect(toVisitor.subject).toBe(`${name} is back at Nail Art Atelier`);
  const link = /https?:\/\/\S+\/product\/\S+/.exec(toVisitor.text)?.[0];
  expect(link).toMatch(new RegExp(`/product/${product.slug}$`));
  await page.goto(new URL(link!).pathname);
  // The visitor's link has no language of its own: this browser keeps the one it chose.
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page.getByText('Останаха само 3')).toBeVisible();
  await expect(page.getByRole('button', { name: `Добавете в количката: ${name}` })).not.toHaveAttribute('aria-disabled');
});

test('a visitor’s heart stays in her browser, joins her account when she signs in, and shows on her other device, where taking it off reaches the first', async ({ page, browser, shop, inbox }) => {
  const email = uniqueEmail('hearts');
  const heart = (where: Page, name: string) => where.getByRole('button', { name: `Favourite: ${name}` });
  await page.goto('/');
  const name = (await cardNames(page).nth(1).textContent())!;
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'false');
  await heart(page, name).click();
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'true');
  await page.getByRole('article').filter({ hasText: name }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'true');

  // Signing in brings it into her account: another device she signs in on shows it.
  await signIn(page, inbox, email);
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'true');
  const otherDevice = await signedInPage(browser, shop, inbox, email);
  await expect(heart(otherDevice, name)).toHaveAttribute('aria-pressed', 'true');
  const audit = await auditPage(otherDevice, 'home page with a favourite');
  expect(audit.problems).toEqual([]);
  await heart(otherDevice, name).click();
  await expect(heart(otherDevice, name)).toHaveAttribute('aria-pressed', 'false');
  await expect.poll(async () => (await otherDevice.request.get('/api/favourites')).json()).toEqual({ productIds: [] });
  await page.reload();
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'false');

  // Offline, a heart waits in the browser and reaches her account when the connection is back.
  await otherDevice.context().setOffline(true);
  await heart(otherDevice, name).click();
  await expect(heart(otherDevice, name)).toHaveAttribute('aria-pressed', 'true');
  await otherDevice.context().setOffline(false);
  await expect.poll(async () => ((await otherDevice.request.get('/api/favourites')).json() as Promise<{ productIds: string[] }>).then((list) => list.productIds.length)).toBe(1);
  await page.reload();
  await expect(heart(page, name)).toHaveAttribute('aria-pressed', 'true');
  await otherDevice.context().close();
});

test('a heart brought in at sign-in shows while it joins her account, and stays once it has', async ({ page, inbox }) => {
  const heart = (name: string) => page.getByRole('button', { name: `Favourite: ${name}` });
  await page.goto('/');
  const name = (await cardNames(page).nth(2).textContent())!;
  await heart(name).click();
  await expect(heart(name)).toHaveAttribute('aria-pressed', 'true');

  // The merge into her account waits (a busy server, a lost connection): her heart shows meanwhile.
  let mergeSent!: () => void;
  const mergeWaiting = new Promise<void>((resolve) => (mergeSent = resolve));
  let releaseMerge!: () => void;
  const mergeReleased = new Promise<void>((resolve) => (releaseMerge = resolve));
  await page.route(
    '**/api/favourites/merge',
    async (route) => {
      mergeSent();
      await mergeReleased;
      await route.fallback();
    },
    { times: 1 },
  );
  await signIn(page, inbox, uniqueEmail('joining'));
  await mergeWaiting;
  await expect(heart(name)).toHaveAttribute('aria-pressed', 'true');
  const merged = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/favourites/merge');
  releaseMerge();
  expect((await merged).status()).toBe(200);
  await expect(heart(name)).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(heart(name)).toHaveAttribute('aria-pressed', 'true');
});

test('a product page shows its gallery, used by keyboard and touch, its texts, and adds to the cart', async ({ page, adminApi, inbox }, testInfo) => {
  const name = `Zz Gallery Set ${Date.now().toString(36)}`;
  let product = await createProduct(adminApi, name, '31.50', 4);
  product = await addPhoto(adminApi, product, 40);
  product = await addPhoto(adminApi, product, 90);

  await page.goto('/');
  await signIn(page, inbox, uniqueEmail('gallery'));
  await searchBox(page).fill(name);
  // The results and the suggestions come after a pause in the typing: a click while either appears
  // can press on one place and let go on another, which is no click.
  await expect(page.getByRole('option', { name })).toBeVisible();
  await expect(page.getByText('1 product', { exact: true })).toBeVisible();
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/product/${product.slug}$`));
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(name));
  await expect(page.getByText('BGN 31.50').first()).toBeVisible();

  const gallery = page.getByRole('group', { name: `Photos of ${name}` });
  const images = gallery.getByRole('button', { name: /^Enlarge photo/ }).getByRole('img');
  await expect(gallery.getByText('Photo 1 of 3')).toBeVisible();
  const firstSource = await images.getAttribute('src');

  if (testInfo.project.name === 'desktop') {
    // The thumbnails are one Tab stop; the arrow keys move between them and show each photo.
    await gallery.getByRole('button', { name: 'Show photo 1 of 3' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(gallery.getByRole('button', { name: 'Show photo 2 of 3' })).toBeFocused();
    await expect(gallery.getByText('Photo 2 of 3')).toBeVisible();
    await page.keyboard.press('End');
    await expect(gallery.getByText('Photo 3 of 3')).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(gallery.getByText('Photo 1 of 3')).toBeVisible();
    await expect(images).toHaveAttribute('src', firstSource!);

    // The larger view opens from the photo, steps with the arrow keys, and Escape closes it.
    await gallery.getByRole('button', { name: 'Enlarge photo 1 of 3' }).press('Enter');
    const lightbox = page.getByRole('dialog', { name: `${name} · Photo 1 of 3` });
    await expect(lightbox).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('dialog', { name: `${name} · Photo 2 of 3` })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(gallery.getByRole('button', { name: 'Enlarge photo 2 of 3' })).toBeFocused();
  } else {
    // A swipe to the left shows the next photo, to the right the one before.
    const box = (await gallery.getByRole('button', { name: /^Enlarge photo/ }).boundingBox())!;
    const swipe = async (from: number, to: number) => {
      await page.mouse.move(box.x + from, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + to, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    };
    await swipe(box.width * 0.8, box.width * 0.2);
    await expect(gallery.getByText('Photo 2 of 3')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await swipe(box.width * 0.2, box.width * 0.8);
    await expect(gallery.getByText('Photo 1 of 3')).toBeVisible();
    await gallery.getByRole('button', { name: 'Show photo 3 of 3' }).tap();
    await expect(gallery.getByText('Photo 3 of 3')).toBeVisible();
  }

  await page.getByRole('button', { name: `Add to Cart: ${name}` }).click();
  await expect(page.getByRole('dialog')).toContainText(`${name} added to cart!`);
  await page.getByRole('dialog').getByRole('button', { name: 'OK', exact: true }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: /^Cart, / })).toHaveAccessibleName('Cart, 1 item');
});

test('a product page says when only a few are left or none, and an unknown product answers with the not-found page', async ({ page, adminApi, allowConsoleErrors }) => {
  allowConsoleErrors(/status of 404/); // the not-found page comes with its status
  const last = await createProduct(adminApi, `Zz Last Page ${Date.now().toString(36)}`, '15.00', 1);
  await page.goto(`/product/${last.slug}`);
  await expect(page.getByRole('article', { name: last.name.en }).getByText('Only 1 left')).toBeVisible();
  await expect(page.getByRole('button', { name: `Add to Cart: ${last.name.en}` })).not.toHaveAttribute('aria-disabled', 'true');

  const gone = await createProduct(adminApi, `Zz Gone Page ${Date.now().toString(36)}`, '12.00', 0);
  await page.goto(`/product/${gone.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: gone.name.en })).toBeVisible();
  await expect(page.getByRole('button', { name: `${gone.name.en} is sold out` })).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByText('Sold out').first()).toBeVisible();

  const missing = await page.goto('/product/no-such-product');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
});

test('cards link to their product pages, whose related products are of the same category', async ({ page }) => {
  await page.goto('/?category=accessories');
  await page.getByRole('link', { name: 'Vanilla Cuticle Oil' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Vanilla Cuticle Oil' })).toBeVisible();
  const related = page.getByRole('region', { name: 'More from Accessories' });
  await expect(related.getByRole('article')).not.toHaveCount(0);
  await expect(related.getByRole('article').filter({ hasText: 'Vanilla Cuticle Oil' })).toHaveCount(0);
  await page.getByRole('link', { name: /Back to the shop/ }).click();
  await expect(page).toHaveURL(/\/\?category=accessories$/);
});

test("a product's page opened from its address asks for its own code with the page, and for the product once", async ({ page }) => {
  await page.goto('/?category=accessories');
  const address = (await page.getByRole('link', { name: 'Vanilla Cuticle Oil', exact: true }).getAttribute('href'))!;
  // The page's lazy code is named in its HTML, so the browser asks for it beside the app's own.
  const html = await (await page.request.get(address)).text();
  expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/product-page-[^"]+\.js">/);
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith('/api/products/by-slug/')) asked.push(pathname);
  });
  await page.goto(address);
  await expect(page.getByRole('heading', { level: 1, name: 'Vanilla Cuticle Oil' })).toBeVisible();
  // The page's first script asks for the product; the app takes that answer rather than asking again.
  expect(asked).toHaveLength(1);
});

test('a product opened from far down the catalogue starts at its top, and Back returns to where the visitor was', async ({ page }) => {
  // A demo product near the end of the catalogue's order by name (the products other tests add come after it, and may go).
  const name = 'Vanilla Cuticle Oil';
  await page.goto('/');
  const card = page.getByRole('article').filter({ has: page.getByRole('heading', { level: 3, name, exact: true }) });
  await card.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
  await card.getByRole('link', { name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  await page.goBack();
  await expect(card).toBeVisible();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
});

test('narrows a view by price, by what can be ordered now and by an option, each with its count, kept in the address [bg]', async ({ page, request }) => {
  await page.goto('/?lang=bg');
  const toggle = page.getByRole('button', { name: /^Филтри/ });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const status = page.getByRole('status').filter({ hasText: /продукт/ });

  // A chosen filter's count is what the view shows. (Other tests change this shop's catalogue meanwhile,
  // so both are read from the answer to the choice.)
  const countIn = (text: string | null, pattern: RegExp) => Number(text?.match(pattern)?.[1] ?? Number.NaN);
  const countOf = async (chip: Locator) => countIn(await chip.textContent(), /\((\d+)\)/);
  const shows = (chip: Locator) => expect.poll(async () => countIn(await status.textContent(), /^(\d+) продукт/) === (await countOf(chip))).toBe(true);
  const band = page.getByRole('group', { name: 'Цена (BGN)' }).getByRole('button', { name: /^20–40/ });
  expect(await countOf(band)).toBeGreaterThan(1);
  await band.click();
  await expect(page).toHaveURL(/[?&]price=20-40(&|$)/);
  await expect(band).toHaveAttribute('aria-pressed', 'true');
  await shows(band);
  const prices = (await (await request.get('/api/products?price=20-40')).json()).products.map((product: { priceMinor: number }) => product.priceMinor) as number[];
  expect(prices.every((price) => price >= 2000 && price < 4000)).toBe(true);

  // What can be ordered now, then an option the matching sets offer.
  const available = page.getByRole('button', { name: /^Може да се поръча сега/ });
  await available.click();
  await expect(page).toHaveURL(/available=1/);
  // The first is the most offered: other tests add products naming an almond shape their own way.
  const option = page.getByRole('group', { name: 'Форма' }).getByRole('button', { name: /^Бадем \(/ }).first();
  await option.click();
  await expect(page).toHaveURL(/options=Shape%3AAlmond/);
  await expect(option).toHaveAttribute('aria-pressed', 'true');
  await shows(option);
  const address = page.url();

  // Reload and Back show the same views; a view with filters chosen opens with them shown.
  await page.reload();
  await expect(page.getByRole('button', { name: /^Филтри \(избрани: 3\)/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('button', { name: /^Може да се поръча сега/ })).toHaveAttribute('aria-pressed', 'true');
  await shows(option);
  await page.goBack();
  await expect(page).not.toHaveURL(/options=/);
  // Until the counts arrive the panel is not there, and the button says so rather than pointing at nothing.
  let answer!: () => void;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  await page.route('**/api/products?*', async (route) => {
    await answered;
    await route.continue();
  });
  await page.goto(address);
  const waiting = page.getByRole('button', { name: /^Филтри \(избрани: 3\)/ });
  await expect(waiting).toBeDisabled();
  await expect(waiting).toHaveAttribute('aria-expanded', 'false');
  await expect(waiting).not.toHaveAttribute('aria-controls');
  expect((await auditPage(page, 'catalogue: filters chosen, counts on their way [bg]')).problems).toEqual([]);
  answer();
  await expect(page.getByRole('group', { name: 'Форма' })).toBeVisible();
  await expect(waiting).toHaveAttribute('aria-controls', /-facets$/);
  const audit = await auditPage(page, 'catalogue: filters chosen [bg]');
  expect(audit.problems).toEqual([]);
});

test('the favourites page lists her hearts newest first, and a heart taken off there takes its card away [bg]', async ({ page }) => {
  await page.goto('/?lang=bg');
  const cards = page.locator('main').getByRole('article');
  const names = [await cardNames(page).nth(0).textContent(), await cardNames(page).nth(1).textContent()] as [string, string];
  for (const name of names) await page.getByRole('button', { name: `В любими: ${name}` }).click();

  await page.getByRole('banner').getByRole('link', { name: 'Любими' }).click();
  await expect(page).toHaveURL(/\/favourites/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Любими');
  await expect(page.getByRole('status')).toHaveText('2 любими продукта');
  await expect(cardNames(page)).toHaveText([names[1], names[0]]);
  const audit = await auditPage(page, 'favourites page [bg]');
  expect(audit.problems).toEqual([]);

  await page.getByRole('button', { name: `В любими: ${names[1]}` }).click();
  await expect(cardNames(page)).toHaveText([names[0]]);
  await page.reload();
  await expect(cardNames(page)).toHaveText([names[0]]);
  await page.getByRole('button', { name: `В любими: ${names[0]}` }).click();
  await expect(cards).toHaveCount(0);
  await expect(page.getByText('Все още нямате любими.', { exact: false })).toBeVisible();
  await page.getByRole('link', { name: 'Разгледайте магазина' }).click();
  await expect(page).toHaveURL(/\/(\?lang=bg)?$/);
});

test('the categories and the Filters button hold their place while the catalogue’s counts are on their way', async ({ page }) => {
  await page.addInitScript(() => {
    (window as unknown as { layoutShifts: number }).layoutShifts = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) (window as unknown as { layoutShifts: number }).layoutShifts += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/products(\?|$)/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/');
  const toggle = page.getByRole('button', { name: /^Filters/ });
  await expect(toggle).toBeDisabled();
  await expect(categories(page).getByRole('button', { name: 'Nails' })).toBeVisible();
  release();
  await expect(toggle).toBeEnabled();
  await expect(categories(page).getByRole('button', { name: /^All \(\d+\)$/ })).toBeVisible();
  await expect(cardNames(page).first()).toBeVisible();
  // Shifts are reported after the frame that makes them.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  expect(await page.evaluate(() => (window as unknown as { layoutShifts: number }).layoutShifts)).toBe(0);
});
