import { randomUUID } from 'node:crypto';
import { and, count, eq, sql } from 'drizzle-orm';
import { describeLines, pieceCount } from '#shared/cart.js';
import type { TextLanguage } from '#shared/catalog.js';
import { bgnToEurMinor, eurToBgnMinor, type Currency } from '#shared/money.js';
import { ORDER_STATUSES, type OrderStatus } from '#shared/order-status.js';
import { mockPaymentPath } from '#shared/routes.js';
import type { Database, Executor } from '#server/db/client.js';
import { addresses, admins, cartItems, orderItems, orders, orderStatusChanges, payments, productPhotos, products, users, withdrawals } from '#server/db/schema.js';
import type { ProductImages } from '#server/images/product-images.js';
import { catalogueChanged } from '#server/catalog/catalogue-state.js';
import { freeSlug, productColumns } from '#server/catalog/product-writes.js';
import { STATUS_TIME_COLUMNS } from '#server/orders/order-queries.js';
import { recordStockSet } from '#server/stock/service.js';
import type { ImportImages } from './import-images.js';
import { fingerprintOf, ImportedRecords, ImportPhotos, noCounts, runImport, type Batch, type ImportReport } from './import-run.js';
import { LEGACY_COLLECTIONS, type LegacyCollection, type LegacyCustomer, type LegacyExport, type LegacyOrder, type LegacyProduct } from './legacy-export.js';

export interface LegacyImportOptions {
  /** Writes nothing: the whole import runs in one transaction that is rolled back, photos are only checked. */
  dryRun: boolean;
  /** Where the products' photos come from. */
  images: ImportImages;
  /** The shop's image store. */
  productImages: ProductImages;
  /** The shop's currency, which products are priced in. */
  shopCurrency: Currency;
  /** The currency the export's amounts are in; orders keep it, products are converted to the shop's at the fixed rate. */
  exportCurrency: Currency;
  /** The language imported orders' e-mails will be written in. */
  orderLanguage: TextLanguage;
  publicUrl: string;
}

/** Records per transaction: a stopped import keeps every batch it finished, and starts again after them. */
const BATCH_SIZE = 100;
/** Who the stock history names for counts an import set. */
const IMPORTER = 'import';

/**
 * Writes the original app's records into the shop. Each record is matched with what an earlier
 * import made of it by its original id (imported_records): one that the export describes as before
 * is left as it is, one that changed is updated, a new one is created. Records are written in
 * batches, each in a transaction with the note of what it brought in, so that an import stopped
 * half-way keeps its finished batches and, started again, goes on after them. Order e-mails are not
 * queued: the customers heard of these orders long ago.
 */
export async function importLegacyExport(db: Database, data: LegacyExport, options: LegacyImportOptions): Promise<ImportReport<LegacyCollection>> {
  const counts = Object.fromEntries(LEGACY_COLLECTIONS.map((collection) => [collection, noCounts(data.unreadable[collection])])) as Record<LegacyCollection, ReturnType<typeof noCounts>>;
  const report: ImportReport<LegacyCollection> = { dryRun: options.dryRun, counts, problems: [...data.problems] };
  await runImport(db, options.dryRun, (batch) => new LegacyImport(report, options, batch).run(data));
  return report;
}

/** The order's column of the first time it entered each status, from its dated history (oldest first). */
function statusTimeColumns(statusTimes: LegacyOrder['statusTimes']) {
  const columns = Object.fromEntries(ORDER_STATUSES.map((status) => [STATUS_TIME_COLUMNS[status], null])) as Record<(typeof STATUS_TIME_COLUMNS)[OrderStatus], Date | null>;
  for (const entry of statusTimes) columns[STATUS_TIME_COLUMNS[entry.status]] ??= new Date(entry.at);
  return columns;
}

class LegacyImport {
  private readonly imported = new ImportedRecords('legacy');
  private readonly productIds = new Map<string, string | undefined>();
  private readonly photos: ImportPhotos;

  constructor(
    private readonly report: ImportReport<LegacyCollection>,
    private readonly options: LegacyImportOptions,
    private readonly batch: Batch,
  ) {
    this.photos = new ImportPhotos(options.images, options.productImages, options.dryRun);
  }

  async run(data: LegacyExport): Promise<void> {
    if (data.products.length > 0 && this.options.exportCurrency !== this.options.shopCurrency) {
      this.problem('products', '', 'price', `prices in ${this.options.exportCurrency} were converted to the shop's ${this.options.shopCurrency} at the fixed rate`);
    }
    await this.inBatches(data.products, (tx, product) => this.product(tx, product), true);
    await this.inBatches(data.customers, (tx, customer) => this.customer(tx, customer));
    await this.inBatches(data.orders, (tx, order) => this.order(tx, order));
    await this.inBatches(data.admins, (tx, email) => this.admin(tx, email));
  }

  private async inBatches<T>(records: readonly T[], write: (tx: Executor, record: T) => Promise<void>, catalogue = false): Promise<void> {
    for (let start = 0; start < records.length; start += BATCH_SIZE) {
      const batch = records.slice(start, start + BATCH_SIZE);
      await this.photos.batch(() =>
        this.batch(async (tx) => {
          for (const record of batch) await write(tx, record);
          if (catalogue) await catalogueChanged(tx);
        }),
      );
    }
  }

  private problem(collection: string, id: string, field: string, message: string): void {
    this.report.problems.push({ collection, id, field, message });
  }

  private previous(tx: Executor, collection: LegacyCollection, originalId: string) {
    return this.imported.previous(tx, collection, originalId);
  }

  private remember(tx: Executor, collection: LegacyCollection, originalId: string, localId: string, fingerprint: string): Promise<void> {
    return this.imported.remember(tx, collection, originalId, localId, fingerprint);
  }

  /** A price of the export in the shop's currency. */
  private shopPrice(minor: number): number {
    const { exportCurrency, shopCurrency } = this.options;
    if (exportCurrency === shopCurrency) return minor;
    return shopCurrency === 'EUR' ? bgnToEurMinor(minor) : eurToBgnMinor(minor);
  }

  /**
   * The product the export's id became, if it was imported and is still in the shop. Products are all
   * written before the customers and orders that name them, so each id is looked up once per run,
   * not once per cart line and order line.
   */
  private async localProduct(tx: Executor, originalId: string): Promise<string | undefined> {
    if (this.productIds.has(originalId)) return this.productIds.get(originalId);
    const imported = await this.previous(tx, 'products', originalId);
    const [row] = imported ? await tx.select({ id: products.id }).from(products).where(eq(products.id, imported.localId)) : [];
    this.productIds.set(originalId, row?.id);
    return row?.id;
  }

  private async product(tx: Executor, product: LegacyProduct): Promise<void> {
    const counts = this.report.counts.products;
    const fingerprint = fingerprintOf([product, this.options.exportCurrency, this.options.shopCurrency]);
    const before = await this.previous(tx, 'products', product.originalId);
    if (before?.fingerprint === fingerprint) return void counts.unchanged++;
    const priceMinor = this.shopPrice(product.priceMinor);
    if (before) {
      const [current] = await tx.select().from(products).where(eq(products.id, before.localId));
      if (!current) {
        this.problem('products', product.originalId, '', 'was deleted in the shop after an earlier import; not brought back');
        return void counts.skipped++;
      }
      const fields = { name: { en: product.name, bg: current.nameBg }, description: { en: product.description, bg: current.descriptionBg }, priceMinor, category: product.category };
      await tx.update(products).set({ ...productColumns(fields), ...(product.stock === null ? {} : { stock: product.stock }), updatedAt: new Date() }).where(eq(products.id, current.id));
      if (product.stock !== null && product.stock !== current.stock) await recordStockSet(tx, current.id, current.stock, product.stock, IMPORTER);
      const [photos] = await tx.select({ count: count() }).from(productPhotos).where(eq(productPhotos.productId, current.id));
      if (photos?.count === 0) await this.photo(tx, current.id, product);
      await this.remember(tx, 'products', product.originalId, current.id, fingerprint);
      return void counts.updated++;
    }
    const id = randomUUID();
    const name = { en: product.name, bg: '' };
    const slug = await freeSlug(tx, name, id);
    const createdAt = product.createdAt ? new Date(product.createdAt) : new Date();
    await tx.insert(products).values({ id, ...productColumns({ name, description: { en: product.description, bg: '' }, priceMinor, category: product.category }), slug, stock: product.stock, createdAt, updatedAt: createdAt });
    if (product.stock !== null) await recordStockSet(tx, id, null, product.stock, IMPORTER);
    await this.photo(tx, id, product);
    await this.remember(tx, 'products', product.originalId, id, fingerprint);
    counts.created++;
  }

  /** The product's photo, from its address or the folder; one that cannot be read leaves the product without one. */
  private async photo(tx: Executor, productId: string, product: LegacyProduct): Promise<void> {
    if (!product.imageUrl) return;
    const problem = await this.photos.add(tx, productId, product.imageUrl, 0);
    if (problem) this.problem('products', product.originalId, 'imageUrl', problem);
  }

  /** The shop's account for the address, made when there is none. */
  private async userFor(tx: Executor, email: string, createdAt: string | null): Promise<{ id: string; created: boolean }> {
    const at = createdAt ? new Date(createdAt) : new Date();
    const [inserted] = await tx.insert(users).values({ email, createdAt: at, updatedAt: at }).onConflictDoNothing().returning({ id: users.id });
    if (inserted) return { id: inserted.id, created: true };
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email));
    return { id: existing!.id, created: false };
  }

  private async customer(tx: Executor, customer: LegacyCustomer): Promise<void> {
    const counts = this.report.counts['art-users'];
    const fingerprint = fingerprintOf([customer, this.options.exportCurrency, this.options.shopCurrency]);
    const before = await this.previous(tx, 'art-users', customer.email);
    if (before?.fingerprint === fingerprint) return void counts.unchanged++;
    const user = await this.userFor(tx, customer.email, customer.createdAt);
    if (customer.lastLoginAt) {
      await tx
        .update(users)
        .set({ lastLoginAt: new Date(customer.lastLoginAt) })
        .where(and(eq(users.id, user.id), sql`(${users.lastLoginAt} is null or ${users.lastLoginAt} < ${new Date(customer.lastLoginAt)})`));
    }

    // Addresses by their original ids; the default is the export's, unless the account already has one of its own.
    for (const address of customer.addresses) {
      const { id, isDefault, createdAt, ...fields } = address;
      void isDefault;
      const at = createdAt ? new Date(createdAt) : new Date();
      const written = await tx
        .insert(addresses)
        .values({ id, userId: user.id, ...fields, isDefault: false, createdAt: at, updatedAt: at })
        .onConflictDoUpdate({ target: addresses.id, set: { ...fields, updatedAt: new Date() }, setWhere: eq(addresses.userId, user.id) })
        .returning({ id: addresses.id });
      if (written.length === 0) this.problem('art-users', customer.email, `addresses.${id}`, 'another account has an address with this id; left out');
    }
    const chosen = customer.addresses.find((address) => address.isDefault);
    if (chosen) {
      const [hasDefault] = await tx.select({ id: addresses.id }).from(addresses).where(and(eq(addresses.userId, user.id), eq(addresses.isDefault, true)));
      if (!hasDefault) await tx.update(addresses).set({ isDefault: true }).where(and(eq(addresses.id, chosen.id), eq(addresses.userId, user.id)));
    }

    // The cart: one line per product (the app added a product once per line), each product as imported.
    const quantities = new Map<string, { quantity: number; line: LegacyCustomer['cart'][number] }>();
    for (const line of customer.cart) {
      const entry = quantities.get(line.productId);
      if (entry) entry.quantity++;
      else quantities.set(line.productId, { quantity: 1, line });
    }
    for (const [originalId, { quantity, line }] of quantities) {
      const productId = await this.localProduct(tx, originalId);
      if (!productId) {
        this.problem('art-users', customer.email, 'cart', `product ${originalId} is not in the shop; its cart line was left out`);
        continue;
      }
      const [product] = await tx.select({ nameEn: products.nameEn, priceMinor: products.priceMinor }).from(products).where(eq(products.id, productId));
      await tx
        .insert(cartItems)
        .values({ userId: user.id, productId, name: line.name || product!.nameEn, priceMinor: line.priceMinor ? this.shopPrice(line.priceMinor) : product!.priceMinor, quantity, addedAt: line.addedAt ? new Date(line.addedAt) : new Date() })
        .onConflictDoNothing();
    }
    await this.remember(tx, 'art-users', customer.email, user.id, fingerprint);
    if (before) counts.updated++;
    else counts.created++;
  }

  private async order(tx: Executor, order: LegacyOrder): Promise<void> {
    const counts = this.report.counts.orders;
    const fingerprint = fingerprintOf([order, this.options.exportCurrency]);
    const before = await this.previous(tx, 'orders', order.id);
    if (before?.fingerprint === fingerprint) return void counts.unchanged++;
    const [existing] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, order.id));
    if (existing && !before) {
      this.problem('orders', order.id, 'orderId', 'the shop already has an order with this id that no import brought; skipped');
      return void counts.skipped++;
    }
    if (!existing && before) {
      this.problem('orders', order.id, '', 'was deleted in the shop after an earlier import; not brought back');
      return void counts.skipped++;
    }
    const user = await this.userFor(tx, order.customerEmail, order.orderedAt);
    const address = order.shippingAddress;
    const lineNames = order.lines.map((line) => ({ name: { en: line.name, bg: '' }, quantity: line.quantity }));
    const payable = order.status === 'pending' && !order.payment && order.paymentMethod !== 'cash_on_delivery';
    const columns = {
      userId: user.id,
      customerEmail: order.customerEmail,
      status: order.status,
      subtotalMinor: order.subtotalMinor,
      taxMinor: order.taxMinor,
      shippingMinor: order.shippingMinor,
      totalMinor: order.totalMinor,
      currency: this.options.exportCurrency,
      taxIncluded: false,
      taxRateBasisPoints: order.taxMinor > 0 && order.subtotalMinor > 0 ? Math.round((order.taxMinor * 10_000) / order.subtotalMinor) : 0,
      itemCount: pieceCount(order.lines),
      itemDescription: describeLines(lineNames),
      paymentMethod: order.paymentMethod,
      checkoutUrl: payable ? `${this.options.publicUrl}${mockPaymentPath(order.id, order.paymentMethod)}` : null,
      paymentReference: order.paymentReference,
      shippingFullName: address.fullName,
      shippingStreetAddress: address.streetAddress,
      shippingApartment: address.apartment,
      shippingCity: address.city,
      shippingState: address.state,
      shippingPostalCode: address.postalCode,
      shippingCountry: address.country,
      shippingPhone: address.phone,
      language: this.options.orderLanguage,
      createdAt: new Date(order.orderedAt),
      orderedAt: new Date(order.orderedAt),
      updatedAt: new Date(order.updatedAt),
      ...statusTimeColumns(order.statusTimes),
    };
    let linesKept = false;
    if (existing) {
      await tx.update(orders).set(columns).where(eq(orders.id, order.id));
      await tx.delete(orderStatusChanges).where(eq(orderStatusChanges.orderId, order.id));
      const [withdrawn] = await tx.select({ id: withdrawals.id }).from(withdrawals).where(eq(withdrawals.orderId, order.id)).limit(1);
      if (withdrawn) {
        linesKept = true;
        this.problem('orders', order.id, 'items', 'the buyer withdrew from this order in the shop; its lines were kept as they are');
      } else await tx.delete(orderItems).where(eq(orderItems.orderId, order.id));
    } else {
      await tx.insert(orders).values({ id: order.id, ...columns });
    }
    if (!linesKept) {
      for (const [position, line] of order.lines.entries()) {
        const productId = line.productId ? ((await this.localProduct(tx, line.productId)) ?? null) : null;
        await tx.insert(orderItems).values({ orderId: order.id, position, productId, nameEn: line.name, priceMinor: line.priceMinor, quantity: line.quantity, addedAt: line.addedAt ? new Date(line.addedAt) : null, orderedAt: new Date(order.orderedAt) });
      }
    }
    await tx.insert(orderStatusChanges).values(order.statusTimes.map((entry, position) => ({ orderId: order.id, position, status: entry.status, changedAt: new Date(entry.at) })));
    if (order.payment) {
      const { payment } = order;
      const written = await tx
        .insert(payments)
        .values({ paymentId: payment.paymentId, orderId: order.id, method: payment.method, amountMinor: payment.amountMinor, processedAt: new Date(payment.processedAt), cardLast4: payment.cardLast4 })
        .onConflictDoNothing()
        .returning({ orderId: payments.orderId });
      if (written.length === 0) {
        const [held] = await tx.select({ orderId: payments.orderId }).from(payments).where(eq(payments.paymentId, payment.paymentId));
        if (held && held.orderId !== order.id) this.problem('orders', order.id, 'payment.paymentId', `belongs to order ${held.orderId} already; the payment was left out`);
      }
    }
    await this.remember(tx, 'orders', order.id, order.id, fingerprint);
    if (before) counts.updated++;
    else counts.created++;
  }

  private async admin(tx: Executor, email: string): Promise<void> {
    const [added] = await tx.insert(admins).values({ id: email, email }).onConflictDoNothing().returning({ id: admins.id });
    if (added) this.report.counts.admins.created++;
    else this.report.counts.admins.unchanged++;
  }
}
