import { sql } from 'drizzle-orm';
import type { ChoiceSummary, LineChoices, OptionGroup, ProductQuestion } from '#shared/product-options.js';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import type { NailSizes } from '#shared/nail-sizes.js';
import type { TaxDocumentContent } from '#shared/tax-documents.js';
import type { CourierOffice, OfficeHours } from '#shared/delivery.js';
import {
  bigint,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();
const moment = (name: string) => timestamp(name, { withTimezone: true });

// node-postgres hands bytea over as a Buffer, PGlite as a Uint8Array; both become a Buffer here.
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/** A customer or admin; e-mails are stored lower-cased. */
export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
  lastLoginAt: moment('last_login_at'),
  lastLogoutAt: moment('last_logout_at'),
  /** The customer's ten nail sizes ("My nail sizes"), which the size picker fills in; orders keep their own copy. */
  nailSizes: jsonb('nail_sizes').$type<NailSizes>(),
  /** Who the customer's invoices were last made out to, which the checkout fills in next time. */
  invoiceBuyer: jsonb('invoice_buyer').$type<InvoiceBuyer>(),
});

/** Admins are found by id (an e-mail) or by their email field (spec section 6). */
export const admins = pgTable(
  'admins',
  {
    id: text('id').primaryKey(),
    email: text('email'),
    /** The language (en or bg) this admin last used the admin dashboard in: their new-order notices come in it. */
    language: text('language'),
    createdAt: createdAt(),
  },
  (table) => [index('admins_email_idx').on(table.email)],
);

export const signInTokens = pgTable(
  'sign_in_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    email: text('email').notNull(),
    requestedFrom: text('requested_from').notNull(),
    createdAt: createdAt(),
    expiresAt: moment('expires_at').notNull(),
    usedAt: moment('used_at'),
  },
  (table) => [
    index('sign_in_tokens_email_created_idx').on(table.email, table.createdAt),
    index('sign_in_tokens_requested_from_created_idx').on(table.requestedFrom, table.createdAt),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: moment('expires_at').notNull(),
    /** The latest use, recorded at most every few minutes; a session unused for too long ends. */
    lastSeenAt: moment('last_seen_at').notNull().defaultNow(),
  },
  (table) => [index('sessions_user_idx').on(table.userId)],
);

export const addresses = pgTable(
  'addresses',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    fullName: text('full_name').notNull(),
    streetAddress: text('street_address').notNull(),
    apartment: text('apartment'),
    city: text('city').notNull(),
    state: text('state').notNull().default(''),
    postalCode: text('postal_code').notNull(),
    country: text('country').notNull(),
    phone: text('phone').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('addresses_user_idx').on(table.userId, table.createdAt),
    // At most one default address per user; the service keeps exactly one when any exist.
    uniqueIndex('addresses_one_default_per_user').on(table.userId).where(sql`${table.isDefault}`),
  ],
);

export const products = pgTable(
  'products',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Names and descriptions in English and Bulgarian; either may be empty, and pages then show the other. */
    nameEn: text('name_en').notNull(),
    nameBg: text('name_bg').notNull().default(''),
    descriptionEn: text('description_en').notNull(),
    descriptionBg: text('description_bg').notNull().default(''),
    /** The product page's address, made from the name; the slugs it had before are in product_slugs. */
    slug: text('slug').notNull(),
    /** Names and descriptions in both languages in the search's form (shared/search.ts searchKey), for the catalogue's search. */
    searchText: text('search_text').notNull().default(''),
    /** The names alone in that form: a search ranks a match in the name before one in the description. */
    searchName: text('search_name').notNull().default(''),
    /** search_text's words, which a search finds through the index on them among the words of search_words that it matches. */
    searchWords: text('search_words')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`string_to_array(search_text, ' ')`),
    /** search_name's words, which rank a match in the name first. */
    searchNameWords: text('search_name_words')
      .array()
      .notNull()
      .generatedAlwaysAs(sql`string_to_array(search_name, ' ')`),
    priceMinor: integer('price_minor').notNull(),
    /** One piece packed, in grams, which a courier's label adds up; null: not known (couriers/shipments.ts assumes a set's weight). */
    weightGrams: integer('weight_grams'),
    category: text('category').notNull().default(''),
    /** Pieces in stock; null when made to order. Orders take pieces with a conditional update, so it never goes below 0. */
    stock: integer('stock'),
    /** Up to three option groups (shared/product-options.ts), each value with its price difference; [] for a piece sold as it is. */
    optionGroups: jsonb('option_groups').$type<OptionGroup[]>().notNull().default([]),
    /** 'product': `stock` counts every combination together; 'combination': each has its count in product_combinations. */
    stockMode: text('stock_mode').notNull().default('product'),
    /** Whether a buyer gives ten nail sizes with each piece. */
    sized: boolean('sized').notNull().default(false),
    /** Up to five questions asked of the buyer (personal notes), with their price add-ons. */
    questions: jsonb('questions').$type<ProductQuestion[]>().notNull().default([]),
    /** Ready to ship within lead_min_days ('ready', lead_max_days the same), or made to order within lead_min_days–lead_max_days working days. */
    leadKind: text('lead_kind').notNull().default('ready'),
    leadMinDays: integer('lead_min_days').notNull().default(2),
    leadMaxDays: integer('lead_max_days').notNull().default(2),
    /** Made to the buyer's wishes: no right of withdrawal (Directive 2011/83/EU art. 16(c)); the product page and checkout say so. */
    personalised: boolean('personalised').notNull().default(false),
    /** Sealed for hygiene: withdrawable only while unsealed (art. 16(e)); the withdrawal form says so. */
    hygieneSealed: boolean('hygiene_sealed').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('products_name_idx').on(table.nameEn),
    // The catalogue sorted by name in a language: the products named in it first, then the others by
    // their other name (catalog/product-queries.ts).
    index('products_name_en_order_idx').on(sql`(${table.nameEn} = '')`, sql`coalesce(nullif(${table.nameEn}, ''), ${table.nameBg})`, table.id),
    index('products_name_bg_order_idx').on(sql`(${table.nameBg} = '')`, sql`coalesce(nullif(${table.nameBg}, ''), ${table.nameEn})`, table.id),
    uniqueIndex('products_slug_idx').on(table.slug),
    index('products_category_name_idx').on(table.category, table.nameEn),
    index('products_price_idx').on(table.priceMinor),
    index('products_created_idx').on(table.createdAt),
    // A search finds the products holding any of the catalogue's words that match a searched word (catalog/product-search.ts).
    index('products_search_words_idx').using('gin', table.searchWords).with({ fastupdate: false }),
    check('products_price_not_negative', sql`${table.priceMinor} >= 0`),
    check('products_stock_not_negative', sql`${table.stock} >= 0`),
    check('products_category_known', sql`${table.category} in ('', 'nails', 'nail-art', 'accessories', 'kits', 'gift-cards')`),
    check('products_stock_mode_known', sql`${table.stockMode} in ('product', 'combination')`),
    check('products_lead_kind_known', sql`${table.leadKind} in ('ready', 'made_to_order')`),
    check('products_lead_days_ordered', sql`0 <= ${table.leadMinDays} and ${table.leadMinDays} <= ${table.leadMaxDays}`),
  ],
);

/**
 * The combinations of option values a product with stock mode 'combination' sells, each with its
 * count (null: made to order). A combination not listed is not sold. Orders take pieces from here
 * with a conditional update, as from products.stock.
 */
export const productCombinations = pgTable(
  'product_combinations',
  {
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** The chosen value ids in group order, joined by '/' (combinationKey). */
    key: text('key').notNull(),
    stock: integer('stock'),
  },
  (table) => [primaryKey({ columns: [table.productId, table.key] }), check('product_combinations_stock_not_negative', sql`${table.stock} >= 0`)],
);

/** A product's photos, the cover first (position 0). An empty alt text means the product's name. */
export const productPhotos = pgTable(
  'product_photos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    imageKey: text('image_key').notNull(),
    altEn: text('alt_en').notNull().default(''),
    altBg: text('alt_bg').notNull().default(''),
    createdAt: createdAt(),
  },
  (table) => [index('product_photos_product_idx').on(table.productId, table.position)],
);

/**
 * Product images in every width, when the shop runs on PostgreSQL: each server process serves any
 * of them. The key is the one product_photos.image_key holds; the ETag is a hash of the bytes.
 */
export const imageVariants = pgTable(
  'image_variants',
  {
    key: text('key').notNull(),
    width: integer('width').notNull(),
    bytes: bytea('bytes').notNull(),
    etag: text('etag').notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.key, table.width] })],
);

/** Slugs a product had before a rename: their addresses redirect to the product's page. */
export const productSlugs = pgTable(
  'product_slugs',
  {
    slug: text('slug').primaryKey(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (table) => [index('product_slugs_product_idx').on(table.productId)],
);

export const cartItems = pgTable(
  'cart_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The price when the line was added, so that the cart can say when it changed since. */
    priceMinor: integer('price_minor').notNull(),
    quantity: integer('quantity').notNull().default(1),
    /** What the buyer chose (options, sizes, answers), checked against the product when added and again at checkout. */
    choices: jsonb('choices').$type<LineChoices>().notNull().default({ options: {}, sizes: null, answers: {} }),
    /** choiceKey(choices): '' for a product sold as it is. Lines of one product differ by it. */
    choiceKey: text('choice_key').notNull().default(''),
    // clock_timestamp(), unlike now(), advances within a transaction, so lines added together keep their order.
    addedAt: moment('added_at')
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [
    index('cart_items_user_idx').on(table.userId, table.addedAt),
    // One line per product and choices: adding the same again raises the line's quantity. The key can be
    // long (answers), so the index holds its hash.
    uniqueIndex('cart_items_user_product_choice_idx').on(table.userId, table.productId, sql`md5(${table.choiceKey})`),
    check('cart_items_quantity_positive', sql`${table.quantity} > 0`),
  ],
);

/** Ids of cart operations already applied, so that a replayed offline operation changes nothing. */
export const appliedCartOperations = pgTable(
  'applied_cart_operations',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    operationId: text('operation_id').notNull(),
    appliedAt: moment('applied_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.operationId] })],
);

export const orders = pgTable(
  'orders',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    customerEmail: text('customer_email').notNull(),
    /** Kept as text so that legacy values survive; read through normalizeOrderStatus. */
    status: text('status').notNull().default('pending'),
    idempotencyKey: text('idempotency_key'),
    subtotalMinor: integer('subtotal_minor').notNull(),
    taxMinor: integer('tax_minor').notNull(),
    shippingMinor: integer('shipping_minor').notNull(),
    totalMinor: integer('total_minor').notNull(),
    /** The cash-on-delivery fee charged on top; 0 for other methods. */
    feeMinor: integer('fee_minor').notNull().default(0),
    /** The currency of every amount of the order (and of its items and payment). */
    currency: text('currency').notNull().default('BGN'),
    /** Whether the prices contained the tax (taxMinor is then part of the subtotal), and its rate. */
    taxIncluded: boolean('tax_included').notNull().default(false),
    taxRateBasisPoints: integer('tax_rate_basis_points').notNull().default(500),
    itemCount: integer('item_count').notNull(),
    itemDescription: text('item_description').notNull(),
    paymentMethod: text('payment_method').notNull(),
    checkoutUrl: text('checkout_url'),
    paymentReference: text('payment_reference'),
    shippingFullName: text('shipping_full_name').notNull(),
    shippingStreetAddress: text('shipping_street_address').notNull(),
    shippingApartment: text('shipping_apartment'),
    shippingCity: text('shipping_city').notNull(),
    shippingState: text('shipping_state').notNull().default(''),
    shippingPostalCode: text('shipping_postal_code').notNull(),
    shippingCountry: text('shipping_country').notNull(),
    shippingPhone: text('shipping_phone').notNull(),
    /** The language the customer placed the order in; their e-mails about it are written in it. */
    language: text('language').notNull().default('en'),
    /** The version of the terms the customer accepted when placing the order, and when. */
    termsVersion: text('terms_version'),
    termsAcceptedAt: moment('terms_accepted_at'),
    createdAt: createdAt(),
    orderedAt: moment('ordered_at').notNull().defaultNow(),
    updatedAt: updatedAt(),
    pendingAt: moment('pending_at'),
    acceptedAt: moment('accepted_at'),
    paidAt: moment('paid_at'),
    preparingAt: moment('preparing_at'),
    readyAt: moment('ready_at'),
    sentAt: moment('sent_at'),
    deliveredAt: moment('delivered_at'),
    cancelledAt: moment('cancelled_at'),
    /** The latest of its lines' dispatch dates: the day the whole order is to ship by. */
    dispatchBy: date('dispatch_by'),
    /** Who the buyer asked the invoice to be made out to; null when no invoice was asked for. */
    invoiceBuyer: jsonb('invoice_buyer').$type<InvoiceBuyer>(),
    /** The discount code the order was placed with, and what it took off the products (before tax). */
    discountCodeId: uuid('discount_code_id').references(() => discountCodes.id),
    discountCode: text('discount_code'),
    discountMinor: integer('discount_minor').notNull().default(0),
    /** The gift card that paid part or all of the order, and how much it paid: what is left to pay is the total less it. */
    giftCardId: uuid('gift_card_id').references(() => giftCards.id),
    /** The card's last four characters, all that the order's pages and documents show of it. */
    giftCardEnding: text('gift_card_ending'),
    giftCardMinor: integer('gift_card_minor').notNull().default(0),
    /** How the order travels (src/shared/delivery.ts): the shop's own delivery ('address') or a courier's kind, as 'econt_office'. */
    deliveryMethod: text('delivery_method').notNull().default('address'),
    /** The courier's office or locker the buyer picked, as it was then; null for delivery to an address. */
    deliveryOffice: jsonb('delivery_office').$type<CourierOffice>(),
  },
  (table) => [
    // The dashboard's sales of a period: every column it reads, in the order of the moments it ranges over.
    index('orders_created_sales_idx').on(table.createdAt, table.status, table.currency, table.totalMinor),
    // A code's uses, counted under its row's lock at every checkout with it, and its revenue.
    index('orders_discount_code_idx').on(table.discountCodeId, table.userId).where(sql`${table.discountCodeId} is not null`),
    // A card's orders, for its uses in the admin's list.
    index('orders_gift_card_idx').on(table.giftCardId).where(sql`${table.giftCardId} is not null`),
    check('orders_gift_card_within_total', sql`${table.giftCardMinor} >= 0 and ${table.giftCardMinor} <= ${table.totalMinor}`),
    // One customer's orders newest first: their own list, and the admin's search, which finds the
    // e-mails in order_customer_emails and then walks this index for each (order-queries.ts).
    index('orders_customer_email_created_id_idx').on(table.customerEmail, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The admin's search finds an order id by its beginning, under any collation,
    index('orders_id_prefix_idx').on(table.id.op('text_pattern_ops')),
    // and by any part of at least three characters (LIKE '%part%'): ids are random, so each
    // three-letter piece is in few orders. Without fastupdate, as order_customer_emails below.
    index('orders_id_trgm_idx').using('gin', table.id.op('gin_trgm_ops')).with({ fastupdate: false }),
    // The admin's list pages by (created_at, id), newest first (order-queries.ts): these indexes hand it
    // a page of any depth, all orders or one stored status, by reading only that page's rows.
    index('orders_created_id_idx').on(table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    index('orders_status_created_id_idx').on(table.status, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst()),
    // The count of a status filter with a search that many e-mails hold: each (status, e-mail) pair is
    // read from the index, where the indexes above would read every order of the status or of the e-mails.
    index('orders_status_customer_email_idx').on(table.status, table.customerEmail),
    uniqueIndex('orders_user_idempotency_key_idx').on(table.userId, table.idempotencyKey),
    check('orders_payment_method_known', sql`${table.paymentMethod} in ('pay_by_link', 'card', 'cash_on_delivery', 'bank_transfer')`),
    check('orders_currency_known', sql`${table.currency} in ('BGN', 'EUR')`),
    check('orders_delivery_method_known', sql`${table.deliveryMethod} in ('address', 'econt_office', 'econt_locker', 'econt_address', 'speedy_office', 'speedy_locker', 'speedy_address')`),
    check('orders_delivery_office_when_needed', sql`(${table.deliveryOffice} is null) = (${table.deliveryMethod} in ('address', 'econt_address', 'speedy_address'))`),
  ],
);

/**
 * The couriers' offices and lockers, as their APIs last listed them (couriers/offices.ts refreshes
 * them daily). search_key is the office's names, city and address in officeSearchKey's form, which
 * holds only a-z, 0-9 and spaces, so a search is a plain LIKE.
 */
export const courierOffices = pgTable(
  'courier_offices',
  {
    courier: text('courier').notNull(),
    id: text('id').notNull(),
    kind: text('kind').notNull(),
    nameBg: text('name_bg').notNull(),
    nameEn: text('name_en').notNull(),
    cityBg: text('city_bg').notNull(),
    cityEn: text('city_en').notNull(),
    postCode: text('post_code').notNull(),
    addressBg: text('address_bg').notNull(),
    addressEn: text('address_en').notNull(),
    hours: jsonb('hours').$type<OfficeHours>().notNull(),
    acceptsCashOnDelivery: boolean('accepts_cash_on_delivery').notNull(),
    searchKey: text('search_key').notNull(),
    cityKey: text('city_key').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.courier, table.id] }),
    // Any part of at least three letters of the names, city or address (LIKE '%part%').
    index('courier_offices_search_trgm_idx').using('gin', table.searchKey.op('gin_trgm_ops')),
    check('courier_offices_kind_known', sql`${table.kind} in ('office', 'locker')`),
  ],
);

/** When each courier's office list was last read: refreshed (succeeded) and tried (the last attempt, with its error). */
export const courierOfficeLists = pgTable('courier_office_lists', {
  courier: text('courier').primaryKey(),
  refreshedAt: moment('refreshed_at'),
  triedAt: moment('tried_at').notNull(),
  officeCount: integer('office_count').notNull().default(0),
  lastError: text('last_error'),
});

/**
 * An order's shipment with its courier, one per order: the row is written ('creating') before the
 * courier is asked, so that a second click or a second admin finds it and creates no second parcel.
 */
export const shipments = pgTable('shipments', {
  orderId: text('order_id')
    .primaryKey()
    .references(() => orders.id, { onDelete: 'cascade' }),
  /** econt, speedy, or manual (the shop arranged the delivery and typed the tracking number). */
  courier: text('courier').notNull(),
  state: text('state').notNull().default('creating'),
  trackingNumber: text('tracking_number'),
  labelPdf: bytea('label_pdf'),
  /** Cash the courier collects from the buyer and transfers to the shop; 0 when the order is paid. */
  codMinor: integer('cod_minor').notNull().default(0),
  createdAt: createdAt(),
  /** When the courier recorded the parcel delivered, and when it reported the cash on delivery transferred. */
  deliveredAt: moment('delivered_at'),
  codPaidAt: moment('cod_paid_at'),
  /** When tracking was last read from the courier. */
  trackedAt: moment('tracked_at'),
}, (table) => [
  check('shipments_state_known', sql`${table.state} in ('creating', 'created')`),
  // The tracking job's list: shipments with a courier, not yet delivered or with cash not yet paid out.
  index('shipments_tracking_idx')
    .on(table.trackedAt)
    .where(sql`${table.state} = 'created' and ${table.courier} <> 'manual' and (${table.deliveredAt} is null or (${table.codMinor} > 0 and ${table.codPaidAt} is null))`),
]);

/**
 * A courier's price for a buyer's parcel, asked at checkout for a method priced by its courier
 * (DELIVERY_FEES=…=courier): the order is placed at this fee, for this destination and weight, until
 * it expires. Converted to the shop's currency when quoted.
 */
export const deliveryQuotes = pgTable(
  'delivery_quotes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    /** The office ("office:4001") or saved address ("address:<id>") the price holds for. */
    destination: text('destination').notNull(),
    weightGrams: integer('weight_grams').notNull(),
    feeMinor: integer('fee_minor').notNull(),
    currency: text('currency').notNull(),
    expiresAt: moment('expires_at').notNull(),
  },
  (table) => [index('delivery_quotes_user_idx').on(table.userId)],
);

/** What the courier reported of a shipment's travel, once each. */
export const shipmentEvents = pgTable(
  'shipment_events',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => shipments.orderId, { onDelete: 'cascade' }),
    at: moment('at').notNull(),
    code: text('code').notNull(),
    descriptionBg: text('description_bg').notNull(),
    descriptionEn: text('description_en').notNull(),
    place: text('place').notNull().default(''),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.at, table.code] })],
);

/**
 * Discount codes the owner hands out (src/shared/discounts.ts has the rules). A code is stored in
 * capitals; a deleted code keeps its row for the orders placed with it, and its text is free again.
 */
export const discountCodes = pgTable(
  'discount_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    kind: text('kind').notNull(),
    /** Basis points for a percentage, minor units of the shop's currency for an amount, 0 for free shipping. */
    value: integer('value').notNull(),
    minSubtotalMinor: integer('min_subtotal_minor'),
    startsAt: moment('starts_at'),
    endsAt: moment('ends_at'),
    usageLimit: integer('usage_limit'),
    perCustomerLimit: integer('per_customer_limit'),
    /** The products and categories it is limited to; both empty: every product. */
    productIds: jsonb('product_ids').$type<string[]>().notNull().default([]),
    categories: jsonb('categories').$type<string[]>().notNull().default([]),
    paused: boolean('paused').notNull().default(false),
    createdAt: createdAt(),
    deletedAt: moment('deleted_at'),
  },
  (table) => [
    uniqueIndex('discount_codes_code_idx').on(table.code).where(sql`${table.deletedAt} is null`),
    check('discount_codes_kind_known', sql`${table.kind} in ('percent', 'amount', 'free_shipping')`),
  ],
);

/**
 * Gift cards (src/shared/gift-cards.ts has the rules): a code and what is left on it, in the shop's
 * currency. The balance only changes under the row's lock, and the check keeps it from going below zero
 * whatever happens. A card pays for an order as a means of payment; its orders hold what it paid.
 */
export const giftCards = pgTable(
  'gift_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull().unique(),
    currency: text('currency').notNull(),
    initialMinor: integer('initial_minor').notNull(),
    balanceMinor: integer('balance_minor').notNull(),
    /** The owner's note for her own list, such as whom a card issued by hand is for. */
    note: text('note').notNull().default(''),
    /** The order that bought it; null for a card issued by hand. */
    orderId: text('order_id').references((): AnyPgColumn => orders.id),
    createdAt: createdAt(),
  },
  (table) => [
    check('gift_cards_balance_within', sql`${table.balanceMinor} >= 0 and ${table.balanceMinor} <= ${table.initialMinor}`),
    check('gift_cards_currency_known', sql`${table.currency} in ('BGN', 'EUR')`),
    index('gift_cards_order_idx').on(table.orderId).where(sql`${table.orderId} is not null`),
  ],
);

/**
 * Every word of the products' search texts, once, kept by triggers on products (migration 0031): a
 * search compares each of its words with these few thousand short words through a trigram index,
 * where comparing it with every product's whole text cost a likeness computed row by row. A word
 * no product holds any more stays until the search texts are made again (refreshSearchTexts); it
 * costs a lookup that finds no product.
 */
export const searchWords = pgTable(
  'search_words',
  {
    word: text('word').primaryKey(),
  },
  (table) => [index('search_words_trgm_idx').using('gin', table.word.op('gin_trgm_ops')).with({ fastupdate: false })],
);

/**
 * Every e-mail that some order holds, once, kept by triggers on orders (migration 0011): added with
 * the first order under it, removed when no order holds it any more (an account's deletion puts a
 * placeholder in its orders). The admin's search by any part of an e-mail reads this small table
 * through a trigram index instead of a trigram index over every order: there, a rare address is
 * the intersection of the lists of orders holding each of its three-letter pieces, which for
 * common pieces (`cus`, `.co`) hold nearly every order.
 */
export const orderCustomerEmails = pgTable(
  'order_customer_emails',
  {
    email: text('email').primaryKey(),
  },
  (table) => [
    // Without fastupdate, new e-mails go straight into the index instead of a pending list that every
    // search reads and only (auto)vacuum empties, and PGlite has no autovacuum.
    index('order_customer_emails_trgm_idx').using('gin', table.email.op('gin_trgm_ops')).with({ fastupdate: false }),
  ],
);

export const orderItems = pgTable(
  'order_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    /** The product's names when the order was placed. */
    nameEn: text('name_en').notNull(),
    nameBg: text('name_bg').notNull().default(''),
    /** The price of one piece, its options and add-ons included. */
    priceMinor: integer('price_minor').notNull(),
    quantity: integer('quantity').notNull().default(1),
    addedAt: moment('added_at'),
    /** What the buyer chose, with the names it had when ordered. */
    choices: jsonb('choices').$type<ChoiceSummary>().notNull().default({ options: [], sizes: null, answers: [] }),
    /** The combination whose count the line took, for a product counting per combination; null otherwise. */
    combinationKey: text('combination_key'),
    /** The working day by which this line is to be dispatched (a date in Sofia), from the product's lead time when ordered. */
    dispatchBy: date('dispatch_by'),
    /** The product's rule for the right of withdrawal when ordered (RETURN_RULES): the one the buyer was told. */
    returnRule: text('return_rule').notNull().default('standard'),
    /** A gift card sold (its product in the gift cards category): no VAT, no discount, and a card issued for each piece once paid. */
    giftCard: boolean('gift_card').notNull().default(false),
    /** The line's part of the order's discount (shareOut): what the buyer paid for it is price × quantity less this. */
    discountMinor: integer('discount_minor').notNull().default(0),
    /** When its order was placed (orders.created_at), so that a period's lines are one range of an index. */
    orderedAt: moment('ordered_at').notNull().defaultNow(),
    /**
     * Whether its order is in one of WORK_LIST_STATUSES, kept by triggers (migration 0027) as the line
     * is written and as its order's status changes, so that the work due is one small index.
     */
    onWorkList: boolean('on_work_list').notNull().default(true),
  },
  (table) => [
    // The dashboard's best sellers of a period: its lines read from this index alone.
    index('order_items_ordered_sales_idx').on(table.orderedAt, table.productId, table.quantity, table.priceMinor, table.discountMinor, table.orderId),
    uniqueIndex('order_items_order_position_idx').on(table.orderId, table.position),
    // The work still due (the dashboard): the lines to make of the open orders, read from this index alone.
    index('order_items_work_due_idx')
      .on(table.dispatchBy, table.quantity)
      .where(sql`${table.onWorkList} and not ${table.giftCard}`),
    check('order_items_return_rule_known', sql`${table.returnRule} in ('standard', 'personalised', 'hygiene_sealed')`),
  ],
);

/**
 * The sales of each Sofia day that has ended, summed once for the dashboard (src/server/admin/daily-sales.ts):
 * the orders not cancelled, and what they came to in each currency (each order's total converted at
 * the fixed rate, or as it is), so that a shop in either currency reads its figures from here. A day
 * with no row is not summed yet; triggers on orders and order_items (migration 0026) delete the row of
 * a day whose orders change after it ended, and the next dashboard sums it again.
 */
export const salesDays = pgTable('sales_days', {
  day: date('day', { mode: 'string' }).primaryKey(),
  orders: integer('orders').notNull(),
  revenueBgnMinor: bigint('revenue_bgn_minor', { mode: 'number' }).notNull(),
  revenueEurMinor: bigint('revenue_eur_minor', { mode: 'number' }).notNull(),
});

/**
 * Pieces sold and what was paid for them, per product and per day that sales_days holds (summed and
 * forgotten with it). No foreign key: a product deleted since keeps its rows, and the dashboard reads
 * only the products there are.
 */
export const productSalesDays = pgTable(
  'product_sales_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    productId: uuid('product_id').notNull(),
    pieces: integer('pieces').notNull(),
    revenueBgnMinor: bigint('revenue_bgn_minor', { mode: 'number' }).notNull(),
    revenueEurMinor: bigint('revenue_eur_minor', { mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.productId] })],
);

/**
 * Every change of a product's stock count, with its reason: sold in an order, returned by cancelling
 * it, taken again when it was reopened, or set by an admin. An order holds the pieces its entries
 * took and did not return, which is what cancelling it gives back.
 */
export const stockChanges = pgTable(
  'stock_changes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    orderId: text('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    /** The combination counted, for a product counting per combination; null for the product's own count. */
    combinationKey: text('combination_key'),
    change: integer('change').notNull(),
    stockAfter: integer('stock_after'),
    reason: text('reason').notNull(),
    changedBy: text('changed_by'),
    changedAt: moment('changed_at')
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [
    index('stock_changes_product_idx').on(table.productId, table.changedAt),
    index('stock_changes_order_idx').on(table.orderId),
    check('stock_changes_reason_known', sql`${table.reason} in ('sold', 'returned', 'retaken', 'set')`),
  ],
);

/**
 * Every status an order has entered, in order: placing (pending), payment (paid) and each change by
 * the admin, written in the transaction that makes the change. Re-entering a status adds a row; the
 * per-status columns of orders keep the first time each status was entered.
 */
export const orderStatusChanges = pgTable(
  'order_status_changes',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** 0 for the first change of an order, then 1, 2...: the order of changes, even within one clock tick. */
    position: integer('position').notNull(),
    status: text('status').notNull(),
    changedAt: moment('changed_at').notNull(),
  },
  (table) => [primaryKey({ columns: [table.orderId, table.position] })],
);

export const payments = pgTable('payments', {
  paymentId: text('payment_id').primaryKey(),
  orderId: text('order_id')
    .notNull()
    .unique()
    .references(() => orders.id, { onDelete: 'cascade' }),
  method: text('method').notNull(),
  amountMinor: integer('amount_minor').notNull(),
  processedAt: moment('processed_at').notNull(),
  cardLast4: text('card_last4'),
  /** The provider that took the money (stripe, epay) and its id for the payment, which a refund names. */
  provider: text('provider'),
  providerReference: text('provider_reference'),
});

/**
 * Each time a buyer sets off to pay an order with a payment provider: what was asked (amount and
 * currency, fixed then), the provider's id for it (a Stripe Checkout Session), and how it ended.
 * ePay.bg names a payment by a number of digits, unique to the merchant: the invoice.
 */
export const paymentAttempts = pgTable(
  'payment_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoice: integer('invoice').notNull().generatedAlwaysAsIdentity({ startWith: 1000 }).unique(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    amountMinor: integer('amount_minor').notNull(),
    currency: text('currency').notNull(),
    providerReference: text('provider_reference'),
    /** started, paid, denied, expired, or failed (the provider could not be reached). */
    state: text('state').notNull().default('started'),
    createdAt: createdAt(),
  },
  (table) => [
    index('payment_attempts_order_idx').on(table.orderId, table.createdAt),
    uniqueIndex('payment_attempts_reference_idx').on(table.provider, table.providerReference),
  ],
);

/**
 * Every notification a payment provider sent, verified or not, as received, with what the shop made
 * of it (the outcome): the admin's record of what the provider said about an order.
 */
export const paymentNotices = pgTable(
  'payment_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    verified: boolean('verified').notNull(),
    orderId: text('order_id').references(() => orders.id, { onDelete: 'set null' }),
    /** The provider's id of the event (Stripe's event id, ePay's invoice and status). */
    eventId: text('event_id'),
    eventType: text('event_type'),
    amountMinor: integer('amount_minor'),
    currency: text('currency'),
    outcome: text('outcome').notNull(),
    body: text('body').notNull(),
  },
  (table) => [index('payment_notices_order_idx').on(table.orderId, table.receivedAt)],
);

/** Small facts about the shop's own state, such as whether the demo catalogue was ever seeded. */
export const shopState = pgTable('shop_state', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/**
 * E-mails waiting to be sent, and those sent or given up on. A message is written in the transaction
 * of the event that causes it, so it exists exactly when the event was committed; a worker in every
 * server process sends it afterwards, claiming it for a while (state 'sending', claimed_until) so
 * that one process sends it, and a process that dies while sending leaves it to be taken over.
 */
export const mailQueue = pgTable(
  'mail_queue',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The order a message is about; none for a back_in_stock message, whose subject is its stock alert. */
    orderId: text('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** The status a status_changed message tells of. */
    orderStatus: text('order_status'),
    /** The withdrawal or refund a returns message tells of; the new invoice an invoice_corrected message sends; the stock alert a back_in_stock message answers. */
    subjectId: uuid('subject_id'),
    recipient: text('recipient').notNull(),
    language: text('language').notNull(),
    /** queued, sending, sent, failed or superseded. */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: moment('next_attempt_at').notNull().defaultNow(),
    claimedUntil: moment('claimed_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: moment('sent_at'),
  },
  (table) => [
    // The worker's question, "what is due?", reads only the messages still to send.
    index('mail_queue_due_idx').on(table.nextAttemptAt).where(sql`${table.state} in ('queued', 'sending')`),
    index('mail_queue_order_idx').on(table.orderId, table.createdAt),
    // Failed messages are few and stay; /metrics counts them without reading the sent ones.
    index('mail_queue_failed_idx').on(table.createdAt).where(sql`${table.state} = 'failed'`),
    // A deleted account's stock alerts find their messages.
    index('mail_queue_alert_idx').on(table.subjectId).where(sql`${table.orderId} is null`),
    // A review request goes out once per order, ever: delivered again, the order gets no second one.
    uniqueIndex('mail_queue_review_request_idx').on(table.orderId).where(sql`${table.kind} = 'review_request'`),
    check('mail_queue_subject', sql`(${table.orderId} is null) = (${table.kind} = 'back_in_stock')`),
  ],
);

/**
 * A buyer's withdrawal from an order or some of its lines (the EU withdrawal button), recorded once
 * per request id when she confirms; the admin then records the goods received and the refund.
 */
export const withdrawals = pgTable(
  'withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Chosen by the form once per statement: a repeated or doubled confirmation records one withdrawal. */
    requestId: text('request_id').notNull().unique(),
    /** The lines withdrawn, by their position in the order, with the pieces of each. */
    lines: jsonb('lines').$type<{ position: number; quantity: number }[]>().notNull(),
    fullName: text('full_name').notNull(),
    /** Where the acknowledgement went. */
    acknowledgementEmail: text('acknowledgement_email').notNull(),
    reason: text('reason'),
    /** Where a cash-on-delivery order's money goes back to. */
    iban: text('iban'),
    submittedAt: moment('submitted_at').notNull(),
    state: text('state').notNull().default('requested'),
    receivedAt: moment('received_at'),
    refundedAt: moment('refunded_at'),
  },
  (table) => [index('withdrawals_order_idx').on(table.orderId, table.submittedAt), index('withdrawals_submitted_idx').on(table.submittedAt), check('withdrawals_state_known', sql`${table.state} in ('requested', 'received', 'refunded')`)],
);

/** Money sent back for an order: never more, all together, than its payment (checked with the order's row locked). */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    withdrawalId: uuid('withdrawal_id').references(() => withdrawals.id, { onDelete: 'set null' }),
    /** Chosen by the admin's screen (or the cancellation) once per refund, so that a repeated request refunds once. */
    requestId: text('request_id').notNull().unique(),
    amountMinor: integer('amount_minor').notNull(),
    /** Why less than the default was refunded, or why the refund was made. */
    reason: text('reason'),
    method: text('method').notNull(),
    providerReference: text('provider_reference'),
    iban: text('iban'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
  },
  (table) => [
    index('refunds_order_idx').on(table.orderId, table.createdAt),
    check('refunds_amount_positive', sql`${table.amountMinor} > 0`),
    check('refunds_method_known', sql`${table.method} in ('provider', 'bank_transfer')`),
  ],
);

/**
 * The next number of each series of tax documents. A number is taken in the transaction that issues
 * the document, with this row locked, so numbers follow each other without gaps in the order the
 * documents were committed: a transaction that fails gives its number back (a sequence would not).
 */
export const documentCounters = pgTable('document_counters', {
  series: text('series').primaryKey(),
  nextNumber: bigint('next_number', { mode: 'number' }).notNull(),
});

/**
 * Invoices, credit notes and sale documents (Наредба Н-18) as issued: numbered in their series, with
 * everything they say frozen in `content`, so that a document reads the same whatever later happens
 * to the shop's settings, products or the order. Issued documents are never changed; a correction
 * is a credit note that refers to its invoice.
 */
export const taxDocuments = pgTable(
  'tax_documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** invoice, credit_note or sale_document (TaxDocumentKind). */
    kind: text('kind').notNull(),
    /** invoice (invoices and credit notes share one sequence) or sale. */
    series: text('series').notNull(),
    number: bigint('number', { mode: 'number' }).notNull(),
    orderId: text('order_id')
      .notNull()
      .references(() => orders.id),
    /** The invoice a credit note corrects, or that a corrected invoice is issued in place of. */
    correctsId: uuid('corrects_id'),
    /** The refund a credit note documents. */
    refundId: uuid('refund_id'),
    issuedAt: moment('issued_at').notNull(),
    currency: text('currency').notNull(),
    /** The total of the document, VAT included; negative for a credit note. */
    totalMinor: integer('total_minor').notNull(),
    content: jsonb('content').$type<TaxDocumentContent>().notNull(),
    /**
     * The Bulgarian original as a PDF, kept the first time it is made (outside the issuing transaction,
     * which stays short), so that what the buyer received stays byte for byte what the shop keeps.
     */
    originalPdf: bytea('original_pdf'),
  },
  (table) => [
    uniqueIndex('tax_documents_series_number_idx').on(table.series, table.number),
    index('tax_documents_order_idx').on(table.orderId, table.issuedAt),
    // The month's documents for the audit file and the accountant's export.
    index('tax_documents_issued_idx').on(table.issuedAt),
    // One sale document per order, and one first invoice; an invoice is replaced (after a credit note
    // cancels it) at most once, cancelled at most once, and a refund is documented once.
    uniqueIndex('tax_documents_order_sale_idx').on(table.orderId).where(sql`${table.kind} = 'sale_document'`),
    uniqueIndex('tax_documents_order_invoice_idx').on(table.orderId).where(sql`${table.kind} = 'invoice' and ${table.correctsId} is null`),
    uniqueIndex('tax_documents_replaces_idx').on(table.correctsId).where(sql`${table.kind} = 'invoice'`),
    uniqueIndex('tax_documents_cancels_idx').on(table.correctsId).where(sql`${table.kind} = 'credit_note' and ${table.refundId} is null`),
    uniqueIndex('tax_documents_refund_idx').on(table.refundId),
    check('tax_documents_kind_known', sql`${table.kind} in ('invoice', 'credit_note', 'sale_document')`),
    check('tax_documents_series_known', sql`${table.series} in ('invoice', 'sale')`),
  ],
);

/**
 * What an import brought in from another shop's data (`npm run import:legacy`): each record by its
 * original id, the shop's own record it became, and a fingerprint of what the export said of it, so
 * that the same export imported again changes nothing and a newer one updates only what changed.
 */
export const importedRecords = pgTable(
  'imported_records',
  {
    source: text('source').notNull(),
    collection: text('collection').notNull(),
    originalId: text('original_id').notNull(),
    localId: text('local_id').notNull(),
    fingerprint: text('fingerprint').notNull(),
    importedAt: moment('imported_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.source, table.collection, table.originalId] })],
);

/**
 * A buyer's request for a piece like a sold-out one ("make me a similar one"), a lead for the maker.
 * One open request per product and e-mail: asking again adds its note to the open request's. It keeps the product's
 * names, so that it still reads after the product is deleted.
 */
export const similarPieceRequests = pgTable(
  'similar_piece_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id').references(() => products.id, { onDelete: 'set null' }),
    productNameEn: text('product_name_en').notNull(),
    productNameBg: text('product_name_bg').notNull(),
    email: text('email').notNull(),
    note: text('note').notNull().default(''),
    language: text('language').notNull(),
    createdAt: createdAt(),
    handledAt: moment('handled_at'),
  },
  (table) => [
    uniqueIndex('similar_piece_requests_open_idx').on(table.productId, table.email).where(sql`${table.handledAt} is null`),
    // The admin's list: open requests newest first.
    index('similar_piece_requests_list_idx').on(table.createdAt).where(sql`${table.handledAt} is null`),
  ],
);

/**
 * A buyer's wish to be told when a sold-out product can be bought again: one waiting alert per
 * product and e-mail. Triggers on the stock columns (migration 0033) queue its one e-mail, and mark
 * it notified, in the transaction that makes a piece buyable, whichever code writes the count.
 */
export const stockAlerts = pgTable(
  'stock_alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    language: text('language').notNull(),
    createdAt: createdAt(),
    notifiedAt: moment('notified_at'),
  },
  (table) => [
    uniqueIndex('stock_alerts_waiting_idx').on(table.productId, table.email).where(sql`${table.notifiedAt} is null`),
    // An account's deletion forgets its alerts.
    index('stock_alerts_email_idx').on(table.email),
  ],
);

/** A signed-in customer's favourite products (the heart on cards and product pages), across her devices. */
export const favourites = pgTable(
  'favourites',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  // A product's deletion finds its hearts through the second.
  (table) => [primaryKey({ columns: [table.userId, table.productId] }), index('favourites_product_idx').on(table.productId)],
);

/**
 * A buyer's review of one line of a delivered order (one per line): stars, text and up to 3 photos,
 * which the product page shows once the admin approves it.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderItemId: uuid('order_item_id')
      .notNull()
      .unique()
      .references(() => orderItems.id, { onDelete: 'cascade' }),
    productId: uuid('product_id')
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    rating: smallint('rating').notNull(),
    text: text('text').notNull(),
    /** The name she signed it with (never her e-mail). */
    name: text('name').notNull(),
    language: text('language').notNull(),
    /** The image keys of its photos, in her order. */
    photoKeys: text('photo_keys').array().notNull().default(sql`'{}'::text[]`),
    /** pending, approved or hidden (REVIEW_STATUSES). */
    status: text('status').notNull().default('pending'),
    reply: text('reply'),
    repliedAt: moment('replied_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('reviews_rating', sql`${table.rating} between 1 and 5`),
    // The product page: its approved reviews, newest first.
    index('reviews_product_idx').on(table.productId, table.createdAt, table.id).where(sql`${table.status} = 'approved'`),
    // The admin's list by status, newest first; a buyer's own.
    index('reviews_status_idx').on(table.status, table.createdAt),
    index('reviews_user_idx').on(table.userId),
  ],
);
