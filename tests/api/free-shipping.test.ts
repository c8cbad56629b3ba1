import { beforeAll, expect, it } from 'vitest';
import { products } from '#server/db/schema.js';
import { fillCart, placeOrder } from './shopper.js';
import { signIn } from './sign-in.js';
import { describeEachDatabase } from './test-app.js';
import { testProduct } from './test-products.js';

describeEachDatabase(
  'free shipping from a subtotal',
  (context) => {
    let product: string;
    beforeAll(async () => {
      [{ id: product }] = (await context().database.db.insert(products).values(testProduct({ name: 'Pearl Set', priceMinor: 2399 })).returning({ id: products.id })) as [{ id: string }];
    });

    it('charges shipping below FREE_SHIPPING_FROM and none from it on, as the browser is told to show', async () => {
      const testApp = context();
      const cookie = await signIn(testApp, 'buyer@example.com');
      await fillCart(testApp, cookie, [product, product]);
      const below = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      expect(below.pricing).toMatchObject({ subtotal: 4798, shipping: 599 });
      await fillCart(testApp, cookie, [product, product, product]);
      const above = await placeOrder(testApp, cookie, { paymentMethod: 'card' });
      expect(above.pricing).toMatchObject({ subtotal: 7197, shipping: 0, total: 7197 + above.pricing.tax });

      // The page carries the threshold, which the cart counts down to with the same shared rules.
      const page = await testApp.app.inject({ method: 'GET', url: '/' });
      expect(page.body).toContain('"freeShippingFromMinor":5000');
    });
  },
  { FREE_SHIPPING_FROM: '50.00', PAYMENT_METHODS: 'card' },
);
