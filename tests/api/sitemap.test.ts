import { expect, it } from 'vitest';
import { products } from '../../src/server/db/schema.js';
import { describeEachDatabase } from './test-app.js';

describeEachDatabase('sitemap', (context) => {
  it('lists the home page, and adds the catalogue images and the date it last changed', async () => {
    const { app, database } = context();
    const empty = await app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(empty.statusCode).toBe(200);
    expect(empty.headers['content-type']).toContain('application/xml');
    expect(empty.body).toContain('<loc>http://shop.test/</loc>');
    expect(empty.body).not.toContain('<image:image>');

    const updatedAt = new Date('2026-03-04T05:06:07.000Z');
    await database.db
      .insert(products)
      .values({ name: 'Tips & "Charms"', description: 'x', priceMinor: 100, imageKey: 'nails/abc_1.webp', updatedAt });
    const full = await app.inject({ method: 'GET', url: '/sitemap.xml' });
    expect(full.body).toContain('<image:loc>http://shop.test/images/nails/abc_1.webp</image:loc>');
    expect(full.body).toContain('<lastmod>2026-03-04T05:06:07.000Z</lastmod>');
    expect(full.body).not.toContain('/admin');
  });
});
