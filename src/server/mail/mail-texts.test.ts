import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fill, MailTextBook, ownTextsFile } from './mail-texts.js';

describe('e-mail texts', () => {
  let dataDir: string;
  const warn = vi.fn();
  const log = { warn } as unknown as FastifyBaseLogger;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'mail-texts-'));
    await mkdir(path.join(dataDir, 'mail-texts'));
    warn.mockReset();
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  it('are the shop’s own until the owner replaces some of them, and follow the owner’s file when it changes', async () => {
    const book = new MailTextBook(dataDir, log);
    expect(book.texts('bg').orderPlaced.payButton).toBe('Платете сега');
    const file = ownTextsFile(dataDir, 'bg');
    await writeFile(file, JSON.stringify({ shopName: 'Ателие Нокти', orderPlaced: { payButton: 'Плащане', unknown: 'x' }, order: 'not an object', extra: { a: 'b' } }));
    const own = book.texts('bg');
    expect(own.shopName).toBe('Ателие Нокти');
    expect(own.orderPlaced.payButton).toBe('Плащане');
    // Everything not replaced keeps its default, and unknown or misshapen entries are ignored.
    expect(own.orderPlaced.heading).toBe('Благодарим ви за поръчката!');
    expect(own.order.total).toBe('Общо');
    expect(own).not.toHaveProperty('extra');
    expect(book.texts('en').shopName).toBe('Nail Art Atelier');

    await writeFile(file, JSON.stringify({ orderPlaced: { payButton: 'Платете' } }));
    await utimes(file, new Date(), new Date(Date.now() + 5_000));
    expect(book.texts('bg').orderPlaced.payButton).toBe('Платете');
    expect(book.texts('bg').shopName).toBe('Nail Art Atelier');
  });

  it('fall back to the defaults, with a warning, when the owner’s file is not valid JSON', async () => {
    await writeFile(ownTextsFile(dataDir, 'en'), '{ "shopName": ');
    const book = new MailTextBook(dataDir, log);
    expect(book.texts('en').shopName).toBe('Nail Art Atelier');
    expect(warn).toHaveBeenCalledOnce();
  });

  it('fill in named values and leave unknown names as they are', () => {
    expect(fill('Order #{orderId} for {total} {unknown}', { orderId: 'NA-1', total: 'BGN 1.00' })).toBe('Order #NA-1 for BGN 1.00 {unknown}');
  });

  it('end a sentence with one full stop when a value brings its own', () => {
    expect(fill('Очаква плащане на {due}.', { due: '39,06 € / 76,39 лв.' })).toBe('Очаква плащане на 39,06 € / 76,39 лв.');
    expect(fill('Awaits {due}.', { due: 'BGN 1.00' })).toBe('Awaits BGN 1.00.');
  });

  it('have the same entries in English and Bulgarian', () => {
    const book = new MailTextBook(dataDir, log);
    const shape = (value: unknown): unknown =>
      typeof value === 'object' && value !== null ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shape(inner)])) : typeof value;
    expect(shape(book.texts('bg'))).toEqual(shape(book.texts('en')));
  });
});
