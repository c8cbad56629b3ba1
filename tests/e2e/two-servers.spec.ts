import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startSmtpInbox, type SmtpInbox } from '../support/smtp-inbox.js';
import { expect, plainCard, test } from './fixtures.js';
import { startShopServer, type ShopServer } from './shop-server.js';
import { signIn } from './sign-in-steps.js';

const serverUrl = process.env.TEST_DATABASE_URL;

test.describe('two server processes on one PostgreSQL database', () => {
  test.skip(!serverUrl, 'Needs a PostgreSQL server: set TEST_DATABASE_URL (CI does).');
  // One pair of servers serves both viewport projects' runs of this test.
  test.describe.configure({ mode: 'serial' });

  const databaseName = `shop_e2e_${process.pid}_${Date.now()}`;
  let inbox: SmtpInbox;
  let first: ShopServer;
  let second: ShopServer;
  let dataDir: string;

  test.beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(serverUrl!);
    url.pathname = `/${databaseName}`;
    inbox = await startSmtpInbox();
    // Processes of one shop share the database, where product photos are kept too when it is PostgreSQL.
    dataDir = mkdtempSync(path.join(tmpdir(), 'shop-two-servers-'));
    const environment = { DATABASE_URL: url.toString(), SMTP_URL: inbox.url, DATA_DIR: dataDir };
    [first, second] = await Promise.all([startShopServer(environment), startShopServer(environment)]);
  });

  test.afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    await inbox?.close();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${databaseName} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('keep one customer’s pages in step, whichever server each page talks to', async ({ context }) => {
    const onFirst = await context.newPage();
    await onFirst.goto(first.baseURL);
    await expect(onFirst.getByRole('article')).toHaveCount(15);
    await signIn(onFirst, inbox, `two-servers-${test.info().project.name}@example.com`);

    // Cookies are shared across ports, so the second page is signed in as the same customer.
    const onSecond = await context.newPage();
    await onSecond.goto(`${second.baseURL}/cart`);
    await expect(onSecond.getByText('Your cart is empty.')).toBeVisible();

    const product = plainCard(onFirst, 0);
    const name = (await product.getByRole('heading').textContent())!;
    await product.getByRole('button', { name: `Add to Cart: ${name}` }).click();
    await expect(onSecond.getByRole('listitem').filter({ hasText: name })).toBeVisible({ timeout: 1500 });

    await onSecond.getByRole('button', { name: `Remove ${name} from cart` }).click();
    await expect(onFirst.getByRole('banner').getByRole('link', { name: 'Cart, 0 items' })).toBeVisible({ timeout: 1500 });
  });
});
