import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { formatMoney } from '#shared/money.js';
import { freePort } from '../support/free-port.js';
import { legacyExport } from '../support/legacy-sample.js';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { Auditor } from './accessibility.js';
import { expect, hasHorizontalScroll, test } from './fixtures.js';
import { clientAddressHeader } from './shop-fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signIn } from './sign-in-steps.js';

// A shop moved in from the original app: its data imported into a new DATA_DIR before the first start.
let inbox: SmtpInbox;
let shop: ShopServer;
let dataDir: string;

// The import and the shop's first start each open a new embedded database: about 10 s on an idle
// machine, and more than a test's 60 s on one busy with the other browser tests (seen at a load of 11).
test.beforeAll(async () => {
  test.setTimeout(180_000);
  dataDir = await mkdtemp(path.join(tmpdir(), 'shop-e2e-imported-'));
  const port = await freePort();
  const exportFile = path.join(dataDir, 'export.json');
  await writeFile(exportFile, JSON.stringify(legacyExport('https://old-shop.example/photos')));
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#c98aa5' } }).png().toBuffer();
  for (const name of ['almond.png', 'coffin.png']) await writeFile(path.join(dataDir, name), png);
  const environment: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: `http://127.0.0.1:${port}`, SEED_DEMO: 'false', LOG_LEVEL: 'warn' };
  delete environment.DATABASE_URL;
  await promisify(execFile)(process.execPath, ['dist/node/server/import-legacy-cli.js', exportFile, '--images', dataDir], { env: environment });
  inbox = await startSmtpInbox();
  shop = await startShopServer({ DATA_DIR: dataDir, PORT: String(port), SMTP_URL: inbox.url, SEED_DEMO: 'false', TRUST_PROXY: 'true' });
});

test.afterAll(async () => {
  await shop?.stop();
  await inbox?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

test('a customer of the old shop signs in and finds, in Bulgarian, her old orders with their totals and statuses, her addresses and her cart', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ baseURL: shop.baseURL, extraHTTPHeaders: clientAddressHeader() });
  await context.addInitScript(() => localStorage.setItem('language', 'bg'));
  const page = await context.newPage();
  const audit = new Auditor(page, testInfo);
  await page.goto('/');
  await signIn(page, inbox, 'maria@example.com');

  await page.goto('/profile?tab=orders');
  const delivered = page.getByRole('listitem', { name: /ORD-1001/ });
  await expect(delivered).toContainText('Доставена');
  await expect(delivered).toContainText(formatMoney(5156, 'BGN', 'bg').replace(/\s/g, '\u00a0'));
  await expect(delivered).toContainText('Almond Pearl Set');
  const sent = page.getByRole('listitem', { name: /ORD-1002/ });
  await expect(sent).toContainText('Изпратена');
  expect(await hasHorizontalScroll(page)).toBe(false);
  await audit.check('profile: imported orders');

  await page.goto('/profile?tab=addresses');
  await expect(page.getByText('бул. Витоша 10')).toBeVisible();
  await page.goto('/cart');
  await expect(page.getByRole('main')).toContainText('Almond Pearl Set');
  await audit.report();
  await context.close();
});
