import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import type { AccountExport } from '#shared/account.js';
import type { Order } from '#shared/orders.js';
import type { AdminReviewList, Review, ReviewableLine, ReviewPage } from '#shared/reviews.js';
import { admins, mailQueue, products, reviews } from '#server/db/schema.js';
import type { OutboxEntry } from '#server/mail/mailer.js';
import { multipartForm, pngImage } from './product-form.js';
import { eventually, fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase, type TestApp } from './test-app.js';
import { testProduct } from './test-products.js';

// Reviews from buyers: only a delivered order's lines may be reviewed, each once; the admin approves,
// hides or answers; the product page and its structured data show the approved ones; the buyer is
// asked once, some days after delivery.

/** The review requests the development outbox holds for the address. */
async function reviewRequestsTo(testApp: TestApp, email: string): Promise<OutboxEntry[]> {
  const folder = path.join(testApp.dataDir, 'outbox');
  const files = (await readdir(folder).catch(() => [])).filter((file) => file.endsWith('.json')).sort();
  const entries = await Promise.all(files.map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry));
  return entries.filter((entry) => entry.to === email && /How do you like|Как ви харесва/.test(entry.subject));
}

describeEachDatabase(
  'reviews from buyers',
  (context) => {
    let admin: string;
    let pearl: { id: string; slug: string };
    let opal: { id: string; slug: string };

    beforeAll(async () => {
      const testApp = context();
      await testApp.database.db.insert(admins).values({ id: 'review-maker@example.com' });
      admin = await signIn(testApp, 'review-maker@example.com');
      [pearl, opal] = (await testApp.database.db
        .insert(products)
        .values([testProduct({ name: 'Review Pearl Set', priceMinor: 2000, stock: 50 }), testProduct({ name: 'Review Opal Set', priceMinor: 2500, stock: 50 })])
        .returning({ id: products.id, slug: products.slug })) as [{ id: string; slug: string }, { id: string; slug: string }];
    });

    const setStatus = async (testApp: TestApp, orderId: string, status: string) => {
      const response = await testApp.app.inject({ method: 'PATCH', url: `/api/admin/orders/${orderId}/status`, headers: { cookie: admin }, payload: { status } });
      expect(response.statusCode, response.body).toBe(200);
    };
    const mine = async (testApp: TestApp, cookie: string) => {
      const response = await testApp.app.inject({ method: 'GET', url: '/api/reviews/mine', headers: { cookie } });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ lines: ReviewableLine[] }>().lines;
    };
    const submit = (testApp: TestApp, cookie: string, fields: Record<string, string>, photos: Buffer[] = []) =>
      testApp.app.inject({ method: 'POST', url: '/api/reviews', ...multipartForm(fields, photos.map((content) => ({ field: 'photo', content })), cookie) });
    const productPage = async (testApp: TestApp, productId: string, cursor?: string) => {
      const response = await testApp.app.inject({ method: 'GET', url: `/api/products/${productId}/reviews${cursor ? `?cursor=${cursor}` : ''}` });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<ReviewPage>();
    };
    const moderate = (testApp: TestApp, reviewId: string, payload: object) => testApp.app.inject({ method: 'PATCH', url: `/api/admin/reviews/${reviewId}`, headers: { cookie: admin }, payload });

    /** A buyer with a delivered order of both products. */
    async function deliveredBuyer(testApp: TestApp, email: string): Promise<{ cookie: string; order: Order }> {
      const cookie = await signIn(testApp, email);
      await fillCart(testApp, cookie, [pearl.id, opal.id]);
      const order = await placeOrder(testApp, cookie);
      await setStatus(testApp, order.orderId, 'delivered');
      return { cookie, order };
    }

    it('lets only the buyer of a delivered line review it, once, and shows it on the product page once approved', async () => {
      const testApp = context();
      const buyer = await signIn(testApp, 'ana-reviews@example.com');
      await fillCart(testApp, buyer, [pearl.id, opal.id]);
      const order = await placeOrder(testApp, buyer);
      // Not delivered yet: nothing to review.
      expect(await mine(testApp, buyer)).toEqual([]);
      await setStatus(testApp, order.orderId, 'delivered');
      const lines = await mine(testApp, buyer);
      expect(lines.map((line) => line.productSlug).sort()).toEqual([opal.slug, pearl.slug].sort());
      expect(lines.every((line) => line.orderId === order.orderId && line.review === null)).toBe(true);
      expect(lines[0]!.suggestedName).toBe(order.shippingAddress.fullName.split(' ')[0]);
      const pearlLine = lines.find((line) => line.productSlug === pearl.slug)!;

      // Someone else, or nobody, may not review her line.
      const stranger = await signIn(testApp, 'stranger-reviews@example.com');
      const refused = await submit(testApp, stranger, { orderItemId: pearlLine.orderItemId, rating: '1', text: 'Never bought it.', name: 'Troll' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { messageKey: 'reviews.errors.notBought' } });
      expect((await testApp.app.inject({ method: 'POST', url: '/api/reviews', ...multipartForm({}, [], '') })).statusCode).toBe(401);

      const written = await submit(testApp, buyer, { orderItemId: pearlLine.orderItemId, rating: '5', text: '  Perfect fit, lasted two weeks.  ', name: 'Ana', language: 'bg' }, [await pngImage(10)]);
      expect(written.statusCode, written.body).toBe(201);
      const review = written.json<{ review: Review & { status: string } }>().review;
      expect(review).toMatchObject({ rating: 5, text: 'Perfect fit, lasted two weeks.', name: 'Ana', language: 'bg', status: 'pending', reply: null });
      expect(review.photos).toHaveLength(1);
      const photo = await testApp.app.inject({ method: 'GET', url: `${review.photos[0]!.url}?w=400` });
      expect(photo.statusCode).toBe(200);
      expect(photo.headers['content-type']).toBe('image/webp');

      // Once per line.
      const again = await submit(testApp, buyer, { orderItemId: pearlLine.orderItemId, rating: '3', text: 'Changed my mind.', name: 'Ana' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: { messageKey: 'reviews.errors.alreadyReviewed' } });
      expect((await mine(testApp, buyer)).find((line) => line.orderItemId === pearlLine.orderItemId)?.review).toMatchObject({ status: 'pending', rating: 5 });

      // Waiting for the admin, it shows nowhere.
      expect(await productPage(testApp, pearl.id)).toEqual({ summary: { count: 0, average: 0 }, reviews: [], nextCursor: null });
      const pending = (await testApp.app.inject({ method: 'GET', url: '/api/admin/reviews?status=pending', headers: { cookie: admin } })).json<AdminReviewList>();
      expect(pending.reviews.find((listed) => listed.id === review.id)).toMatchObject({ orderId: order.orderId, productSlug: pearl.slug, status: 'pending' });
      expect((await testApp.app.inject({ method: 'GET', url: '/api/admin/reviews', headers: { cookie: buyer } })).statusCode).toBe(403);

      const approved = await moderate(testApp, review.id, { status: 'approved', reply: 'Thank you, Ana!' });
      expect(approved.statusCode, approved.body).toBe(204);
      const shown = await productPage(testApp, pearl.id);
      expect(shown.summary).toEqual({ count: 1, average: 5 });
      expect(shown.reviews).toEqual([expect.objectContaining({ id: review.id, text: 'Perfect fit, lasted two weeks.', reply: 'Thank you, Ana!', language: 'bg' })]);
      // Never her e-mail.
      expect(JSON.stringify(shown)).not.toContain('ana-reviews@example.com');
      const productAnswer = await testApp.app.inject({ method: 'GET', url: `/api/products/by-slug/${pearl.slug}` });
      expect(productAnswer.statusCode, productAnswer.body).toBe(200);

      // The product page's structured data carries the rating and the review.
      const page = await testApp.app.inject({ method: 'GET', url: `/product/${pearl.slug}` });
      expect(page.body).toContain('"aggregateRating":{"@type":"AggregateRating","ratingValue":5,"reviewCount":1');
      expect(page.body).toContain('"reviewBody":"Perfect fit, lasted two weeks."');
      expect(page.body).not.toContain('ana-reviews@example.com');

      // Hidden, it goes from the page, and so do its stars.
      expect((await moderate(testApp, review.id, { status: 'hidden' })).statusCode).toBe(204);
      expect((await productPage(testApp, pearl.id)).summary).toEqual({ count: 0, average: 0 });
      expect((await testApp.app.inject({ method: 'GET', url: `/product/${pearl.slug}` })).body).not.toContain('aggregateRating');
      expect((await moderate(testApp, review.id, { status: 'approved' })).statusCode).toBe(204);
      expect((await moderate(testApp, crypto.randomUUID(), { status: 'approved' })).statusCode).toBe(404);
      expect((await moderate(testApp, review.id, { status: 'published' })).statusCode).toBe(400);
    });

    it('refuses bad input with a message for each field, and keeps nothing of it', async () => {
      const testApp = context();
      const { cookie, order } = await deliveredBuyer(testApp, 'bad-input-reviews@example.com');
      const line = (await mine(testApp, cookie))[0]!;
      const valid = { orderItemId: line.orderItemId, rating: '4', text: 'Nice.', name: 'Vesi' };
      const cases: [Record<string, string>, Buffer[], number, string][] = [
        [{ ...valid, rating: '6' }, [], 400, 'reviews.errors.ratingMissing'],
        [{ ...valid, rating: '' }, [], 400, 'reviews.errors.ratingMissing'],
        [{ ...valid, text: '   ' }, [], 400, 'reviews.errors.textMissing'],
        [{ ...valid, text: 'x'.repeat(2001) }, [], 400, 'reviews.errors.textTooLong'],
        [{ ...valid, name: 'vesi@example.com' }, [], 400, 'reviews.errors.nameIsEmail'],
        [{ ...valid, name: '' }, [], 400, 'reviews.errors.nameMissing'],
        [{ ...valid, orderItemId: 'not-a-line' }, [], 400, 'reviews.errors.lineMissing'],
        [valid, await Promise.all([1, 2, 3, 4].map((red) => pngImage(red))), 400, 'reviews.errors.tooManyPhotos'],
      ];
      for (const [fields, photos, status, messageKey] of cases) {
        const response = await submit(testApp, cookie, fields, photos);
        expect(response.statusCode, `${JSON.stringify(fields).slice(0, 80)}: ${response.body}`).toBe(status);
        expect(JSON.stringify(response.json())).toContain(messageKey);
      }
      const notAnImage = await submit(testApp, cookie, valid, [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')]);
      expect(notAnImage.statusCode).toBe(415);
      expect(await testApp.database.db.select().from(reviews).where(eq(reviews.orderItemId, line.orderItemId))).toEqual([]);
      // The same form, put right, is taken.
      expect((await submit(testApp, cookie, valid)).statusCode).toBe(201);

      // An order no longer delivered (sent back on its way by mistake) has nothing to review meanwhile.
      const other = (await mine(testApp, cookie)).find((found) => found.orderItemId !== line.orderItemId)!;
      await setStatus(testApp, order.orderId, 'sent');
      expect((await submit(testApp, cookie, { ...valid, orderItemId: other.orderItemId })).statusCode).toBe(403);
    });

    it('records one review of a line sent many times at once', async () => {
      const testApp = context();
      const { cookie } = await deliveredBuyer(testApp, 'parallel-reviews@example.com');
      const line = (await mine(testApp, cookie))[0]!;
      const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => submit(testApp, cookie, { orderItemId: line.orderItemId, rating: String((index % 5) + 1), text: `Try ${index}`, name: 'Mira' })));
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
      expect(await testApp.database.db.select().from(reviews).where(eq(reviews.orderItemId, line.orderItemId))).toHaveLength(1);
    });

    it('takes 10 reviews from one account in 15 minutes, then asks it to wait', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'prolific-reviews@example.com');
      for (let order = 0; order < 6; order++) {
        await fillCart(testApp, cookie, [pearl.id, opal.id]);
        await setStatus(testApp, (await placeOrder(testApp, cookie)).orderId, 'delivered');
      }
      const lines = await mine(testApp, cookie);
      expect(lines).toHaveLength(12);
      const answers: number[] = [];
      for (const line of lines.slice(0, 11)) answers.push((await submit(testApp, cookie, { orderItemId: line.orderItemId, rating: '5', text: 'Lovely.', name: 'Rada' })).statusCode);
      expect(answers).toEqual([...Array<number>(10).fill(201), 429]);
    });

    it('pages a product’s reviews newest first, with their average', async () => {
      const testApp = context();
      const ratings = [5, 4, 4, 3, 5, 5, 4, 2, 5, 5, 4, 3];
      const ids: string[] = [];
      for (const [index, rating] of ratings.entries()) {
        const { cookie } = await deliveredBuyer(testApp, `pager-${index}@example.com`);
        const line = (await mine(testApp, cookie)).find((found) => found.productSlug === opal.slug)!;
        const written = await submit(testApp, cookie, { orderItemId: line.orderItemId, rating: String(rating), text: `Review ${index}`, name: `Buyer ${index}` });
        expect(written.statusCode, written.body).toBe(201);
        ids.push(written.json<{ review: Review }>().review.id);
      }
      for (const id of ids) expect((await moderate(testApp, id, { status: 'approved' })).statusCode).toBe(204);
      const first = await productPage(testApp, opal.id);
      const average = Math.round((ratings.reduce((sum, rating) => sum + rating, 0) / ratings.length) * 10) / 10;
      expect(first.summary).toEqual({ count: ratings.length, average });
      expect(first.reviews.map((review) => review.text)).toEqual(ratings.map((_, index) => `Review ${index}`).reverse().slice(0, 10));
      const second = await productPage(testApp, opal.id, first.nextCursor!);
      expect(second.reviews.map((review) => review.text)).toEqual(['Review 1', 'Review 0']);
      expect(second.nextCursor).toBeNull();
      expect((await testApp.app.inject({ method: 'GET', url: `/api/products/${opal.id}/reviews?cursor=nonsense` })).statusCode).toBe(400);
    });

    it('asks for a review once, some days after delivery, and not when there is nothing left to review', async () => {
      const testApp = context();
      const { cookie, order } = await deliveredBuyer(testApp, 'asked-reviews@example.com');
      const requests = () => testApp.database.db.select().from(mailQueue).where(and(eq(mailQueue.orderId, order.orderId), eq(mailQueue.kind, 'review_request')));
      const [queued] = await requests();
      // REVIEW_REQUEST_DAYS is 1 here.
      expect(queued!.nextAttemptAt.getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
      expect(queued!.state).toBe('queued');
      // Delivered again after a mistaken change: still one.
      await setStatus(testApp, order.orderId, 'sent');
      expect((await requests())[0]!.state).toBe('superseded');
      await setStatus(testApp, order.orderId, 'delivered');
      expect(await requests()).toHaveLength(1);

      // The day comes: one e-mail naming both pieces, with the way to the order.
      const sendDue = async () => {
        await testApp.database.db.update(mailQueue).set({ nextAttemptAt: new Date() }).where(and(eq(mailQueue.orderId, order.orderId), eq(mailQueue.kind, 'review_request')));
        testApp.app.mailWorker.wake();
        return eventually(async () => {
          const [row] = await requests();
          return row && !['queued', 'sending'].includes(row.state) && row.state;
        }, 15_000, 'the review request');
      };
      expect(await sendDue()).toBe('sent');
      const [mail] = await reviewRequestsTo(testApp, 'asked-reviews@example.com');
      expect(mail!.subject).toBe(`How do you like your order #${order.orderId}?`);
      expect(mail!.text).toContain('Review Pearl Set');
      expect(mail!.text).toContain(`/profile?order=${order.orderId}`);
      await setStatus(testApp, order.orderId, 'sent');
      await setStatus(testApp, order.orderId, 'delivered');
      expect((await requests())[0]!.state).toBe('sent');

      // A second order, reviewed whole before its day: the request has nothing to ask, and is not sent.
      await fillCart(testApp, cookie, [pearl.id]);
      const second = await placeOrder(testApp, cookie);
      await setStatus(testApp, second.orderId, 'delivered');
      const line = (await mine(testApp, cookie)).find((found) => found.orderId === second.orderId)!;
      expect((await submit(testApp, cookie, { orderItemId: line.orderItemId, rating: '5', text: 'Again lovely.', name: 'Asya' })).statusCode).toBe(201);
      await testApp.database.db.update(mailQueue).set({ nextAttemptAt: new Date() }).where(and(eq(mailQueue.orderId, second.orderId), eq(mailQueue.kind, 'review_request')));
      testApp.app.mailWorker.wake();
      await eventually(async () => {
        const [row] = await testApp.database.db.select().from(mailQueue).where(and(eq(mailQueue.orderId, second.orderId), eq(mailQueue.kind, 'review_request')));
        return row?.state === 'superseded';
      }, 15_000, 'the second request to be dropped');
      expect(await reviewRequestsTo(testApp, 'asked-reviews@example.com')).toHaveLength(1);
    });

    it('puts her reviews in her copy of her data, and deletes them and their photos with her account', async () => {
      const testApp = context();
      const { cookie } = await deliveredBuyer(testApp, 'leaving-reviews@example.com');
      const line = (await mine(testApp, cookie)).find((found) => found.productSlug === pearl.slug)!;
      const written = await submit(testApp, cookie, { orderItemId: line.orderItemId, rating: '4', text: 'Lovely shine.', name: 'Dora' }, [await pngImage(30)]);
      const review = written.json<{ review: Review }>().review;
      expect((await moderate(testApp, review.id, { status: 'approved' })).statusCode).toBe(204);
      const copy = (await testApp.app.inject({ method: 'GET', url: '/api/account/export', headers: { cookie } })).json<AccountExport>();
      expect(copy.reviews).toEqual([expect.objectContaining({ id: review.id, text: 'Lovely shine.', status: 'approved', productId: pearl.id })]);

      const deleted = await testApp.app.inject({ method: 'DELETE', url: '/api/account', headers: { cookie }, payload: { email: 'leaving-reviews@example.com' } });
      expect(deleted.statusCode, deleted.body).toBe(204);
      expect(await testApp.database.db.select().from(reviews).where(eq(reviews.id, review.id))).toEqual([]);
      expect((await productPage(testApp, pearl.id)).reviews.map((shown) => shown.id)).not.toContain(review.id);
      expect((await testApp.app.inject({ method: 'GET', url: review.photos[0]!.url })).statusCode).toBe(404);
    });
  },
  { REVIEW_REQUEST_DAYS: '1' },
);
