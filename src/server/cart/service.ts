import { and, asc, eq, or, sql, type Placeholder } from 'drizzle-orm';
import { MAX_CART_PIECES, pieceCount, type CartItem, type CartOperation, type CartOperationResult, type CartOperationsResponse } from '#shared/cart.js';
import type { LocalizedText } from '#shared/catalog.js';
import type { Currency } from '#shared/money.js';
import { DEFAULT_NAIL_SIZE_CHART, type NailSizeChart } from '#shared/nail-sizes.js';
import {
  choiceKey,
  EMPTY_CHOICE_SUMMARY,
  isPlainProduct,
  leadTimeOf,
  NO_CHOICES,
  summarizeChoices,
  unitPriceMinor,
  validateChoices,
  type ChoiceProblem,
  type ChoiceSummary,
  type CombinationStock,
  type LineChoices,
  type ProductModel,
  type StockMode,
} from '#shared/product-options.js';
import { dispatchDate } from '#shared/working-days.js';
import { returnRuleOf, type ReturnRule } from '#shared/withdrawals.js';
import { GIFT_CARD_CATEGORY } from '#shared/catalog.js';
import type { Database, Executor } from '#server/db/client.js';
import { appliedCartOperations, cartItems, productCombinations, products } from '#server/db/schema.js';
import { PreparedQuery, PreparedStatement } from '#server/db/prepared.js';
import { databaseErrorCode, inTransaction, lockSubject, retriedOnce } from '#server/db/transaction.js';
import { HttpError } from '#server/http/errors.js';
import { changeNotice } from '#server/notices/live-hub.js';
import { countedCombination, modelColumns, modelOfRow, type ModelColumnsRow } from './product-model.js';
import { catalogueCurrencyColumn, checkPricesCurrency } from '#server/catalog/currency.js';
import { parseSizeChart, readSizeChart, sizeChartColumn } from '#server/catalog/size-chart.js';

/** Operation ids older than this may be forgotten: no browser replays a queue that old. */
const OPERATION_MEMORY_DAYS = 30;

/** The cart's lines with the products' current names, prices, models and counts, oldest first ($1: the user; cart_lines in migration 0036). */
const CART_LINES = 'select * from cart_lines($1::uuid) line order by line.added_at, line.id';

interface CartLineRow extends ModelColumnsRow {
  [column: string]: unknown;
  id: string;
  product_id: string;
  slug: string;
  name_en: string;
  name_bg: string;
  added_price_minor: number;
  quantity: number;
  stock: number | null;
  personalised: boolean;
  hygiene_sealed: boolean;
  category: string;
  /** A Date, or PostgreSQL's text for it where Drizzle has the driver leave timestamps as text (Date parses it, as Drizzle's own mapping does). */
  added_at: Date | string;
  choices: string;
  choice_key: string;
  combination_key: string | null;
  combination_stock: number | null;
}

const cartLines = new PreparedStatement<CartLineRow>('cart_lines', CART_LINES);
/** The lines after a change, in the statement that also forgets the cart's operation ids older than $2. */
const cartLinesForgettingOperations = new PreparedStatement<CartLineRow>(
  'cart_lines_forgetting_operations',
  `with expired as (delete from applied_cart_operations where user_id = $1::uuid and applied_at < $2::timestamptz) ${CART_LINES}`,
);

/** Reads the size chart at most once per request, and only when a sized product needs it. */
type ChartReader = () => Promise<NailSizeChart>;
const chartReader = (tx: Executor): ChartReader => {
  let chart: Promise<NailSizeChart> | undefined;
  return () => (chart ??= readSizeChart(tx));
};

/**
 * A line as the API shows it: priced, summarised and checked against the product as it is now, so
 * that the buyer sees before checkout what changed since the line was added.
 */
function toCartItem(row: CartLineRow, chart: NailSizeChart, now: Date): CartItem {
  const model = modelOfRow(row, row.combination_key === null ? [] : [{ key: row.combination_key, stock: row.combination_stock }]);
  const choices = JSON.parse(row.choices) as LineChoices;
  const plain = row.choice_key === '' && isPlainProduct(model);
  const checked = plain ? null : validateChoices(model, choices, chart);
  const counted = countedCombination(model, choices);
  return {
    id: row.id,
    productId: row.product_id,
    slug: row.slug,
    name: { en: row.name_en, bg: row.name_bg },
    priceMinor: unitPriceMinor(model, choices),
    addedPriceMinor: row.added_price_minor,
    quantity: row.quantity,
    // A combination no longer sold has nothing left to sell.
    stock: counted === null ? row.stock : row.combination_key === null ? 0 : row.combination_stock,
    addedAt: new Date(row.added_at).toISOString(),
    choices,
    choiceKey: row.choice_key,
    summary: plain ? EMPTY_CHOICE_SUMMARY : summarizeChoices(model, choices),
    problem: checked && 'problem' in checked ? checked.problem : null,
    dispatchBy: dispatchDate(model.leadTime, now),
    returnRule: returnRuleOf({ personalised: row.personalised, hygieneSealed: row.hygiene_sealed }),
    giftCard: row.category === GIFT_CARD_CATEGORY,
  };
}

async function toCartItems(rows: CartLineRow[], readChart: ChartReader): Promise<CartItem[]> {
  const chart = rows.some((row) => row.sized) ? await readChart() : DEFAULT_NAIL_SIZE_CHART;
  const now = new Date();
  return rows.map((row) => toCartItem(row, chart, now));
}

/** The cart's lines with the products' current names, prices and counts, oldest first; in a transaction of the database when given one. */
export async function getCart(db: Database, userId: string, tx: Executor = db): Promise<CartItem[]> {
  return toCartItems(await cartLines.run(db, tx, [userId]), chartReader(tx));
}

/**
 * Applies the operations in order, in one transaction, each id at most once. Names and prices come
 * from the product table, never from the browser; choices are checked against the product as it is
 * now. A line may not hold more pieces than are in stock (the order takes them; the cart only keeps
 * the customer from asking for what is not there): the lines of a product counted as a whole share
 * its count, and those of one combination that combination's. Other devices hear of the change when
 * it commits. Operations on one cart, and checkouts of it, take turns, so each sees the cart the one
 * before left.
 *
 * Cart additions are the shop's busiest writes, so a single addition or new quantity of a product
 * sold as it is takes one round trip, a call of a database function that takes the lock, makes the
 * change and reads the cart back (applyPlainPieceChange). Otherwise each operation on a product sold
 * as it is is one statement in a transaction, and the cart is read back in the statement that forgets
 * old operation ids; a product with options, sizes or questions costs one more statement, which reads
 * its model to check the choices (and the size chart, for a sized one).
 */
export async function applyCartOperations(db: Database, userId: string, operations: readonly CartOperation[]): Promise<CartOperationsResponse> {
  const [operation] = operations;
  if (operations.length === 1 && operation && isPlainPieceChange(operation)) {
    const response = await applyPlainPieceChange(db, userId, operation);
    if (response) return response;
  }
  return inTransaction(db, async (tx) => {
    await lockSubject(tx, 'cart', userId);
    const readChart = chartReader(tx);
    const outcomes: CartOperationResult[] = [];
    let added = false;
    for (const operation of operations) {
      const result = await applyOperation(db, tx, userId, operation, readChart);
      outcomes.push({ id: operation.id, ...result });
      if (result.outcome === 'applied' && operation.type !== 'remove') added = true;
    }
    const items = await toCartItems(await cartLinesForgettingOperations.run(db, tx, [userId, forgetOperationsBefore()]), readChart);
    // Refused after the writes, the request rolls them back, and their notices with them.
    if (added && pieceCount(items) > MAX_CART_PIECES) throw cartFull();
    return { items, outcomes };
  });
}

const forgetOperationsBefore = () => new Date(Date.now() - OPERATION_MEMORY_DAYS * 24 * 60 * 60 * 1000).toISOString();
const cartFull = () => new HttpError(409, 'cart_full', `A cart holds at most ${MAX_CART_PIECES} items.`);

/** An addition or a new quantity for a line without choices: the cart's busiest operation, which one call can do. */
const isPlainPieceChange = (operation: CartOperation): operation is Extract<CartOperation, { type: 'add' | 'set' }> =>
  operation.type !== 'remove' && !(operation.type === 'set' && operation.quantity === 0) && choiceKey(operation.choices ?? NO_CHOICES) === '';

/**
 * A piece sold as it is, added or its line set, in one round trip; null, having done nothing, when the
 * product has options, sizes or questions, whose choices applyOperation checks first.
 */
async function applyPlainPieceChange(db: Database, userId: string, operation: Extract<CartOperation, { type: 'add' | 'set' }>): Promise<CartOperationsResponse | null> {
  const { channel, payload } = changeNotice(userId, 'cart');
  const quantity = operation.type === 'set' ? operation.quantity : null;
  const values = [userId, operation.id, operation.productId, quantity, channel, payload, forgetOperationsBefore(), MAX_CART_PIECES];
  const [row] = await retriedOnce(() => addPlainPiece.run(db, db, values)).catch((error: unknown) => {
    // The call raised after the change, which was undone with its notice.
    throw databaseErrorCode(error) === CART_FULL_SQLSTATE ? cartFull() : error;
  });
  if (!row || row.modelled || row.lines === null) return null;
  const items = await toCartItems(JSON.parse(row.lines) as CartLineRow[], chartReader(db));
  return { items, outcomes: [{ id: operation.id, ...outcomeOf(row, null) }] };
}

/** Records the operation id ($1: the user, $2: the id); returns it only when it is new. */
const RECORD_OPERATION = `fresh as (
  insert into applied_cart_operations (user_id, operation_id) values ($1::uuid, $2::text)
  on conflict do nothing
  returning operation_id
)`;

interface OperationRow extends Record<string, unknown> {
  /** Whether the operation id was new: nothing else happens for one seen before. */
  fresh: boolean;
  /** Whether a line was written or removed. */
  changed: boolean;
}

interface LineChangeRow extends OperationRow {
  /** The product has options, sizes or questions, and the statement was to write only a product sold as it is: nothing was done, the id not recorded. */
  modelled: boolean;
  /** The product, with its current name, and the quantity the line was to have; null when there is no such product. */
  product_id: string | null;
  name_en: string | null;
  name_bg: string | null;
  /** The count the line draws on (the product's or its combination's), and what the cart's other lines hold of it. */
  stock: number | null;
  others: number | null;
  wanted: number | null;
  /** False when the line's combination is no longer sold. */
  on_sale: boolean | null;
}

/**
 * Adds a piece ($4 null) or sets the quantity ($4) of the product $3 with the choices $7 (their key $8)
 * in the cart of $1, under the operation id $2, within the count it draws on (see cart_change_line in
 * migration 0036, which says how).
 */
const changeLine = new PreparedStatement<LineChangeRow>(
  'cart_change_line',
  'select * from cart_change_line($1::uuid, $2::text, $3::uuid, $4::integer, $5::text, $6::text, $7::jsonb, $8::text, $9::integer, $10::text, $11::integer, $12::boolean)',
);

interface PlainPieceRow extends LineChangeRow {
  /** JSON of the cart's lines after the change (CartLineRow), null when the product is modelled. */
  lines: string | null;
}

/** The lock, the change, the forgetting of old operation ids and the cart read back, in one call (cart_add_plain_piece, migration 0036). */
const addPlainPiece = new PreparedStatement<PlainPieceRow>(
  'cart_add_plain_piece',
  'select * from cart_add_plain_piece($1::uuid, $2::text, $3::uuid, $4::integer, $5::text, $6::text, $7::timestamptz, $8::integer)',
);

/** What cart_add_plain_piece raises when the change would take the cart past MAX_CART_PIECES. */
const CART_FULL_SQLSTATE = 'CARTF';

interface LineModelRow extends ModelColumnsRow {
  [column: string]: unknown;
  /** The operation id was applied before. */
  seen: boolean;
  /** JSON: the product's combinations on sale, when it counts per combination. */
  combinations: string;
  /** JSON: the cart's lines of the product, their key, choices and quantity. */
  lines: string;
}

/** The model of product $2 and the lines of it in the cart of $1, and whether the operation id $3 was applied before. */
const lineModel = new PreparedStatement<LineModelRow>(
  'cart_line_model',
  `select exists (select from applied_cart_operations where user_id = $1::uuid and operation_id = $3::text) as seen, ${modelColumns('product')},
    (select coalesce(json_agg(json_build_object('key', combination.key, 'stock', combination.stock)), '[]'::json)::text
      from product_combinations combination where combination.product_id = product.id and product.stock_mode = 'combination') as combinations,
    (select coalesce(json_agg(json_build_object('choiceKey', line.choice_key, 'choices', line.choices, 'quantity', line.quantity)), '[]'::json)::text
      from cart_items line where line.user_id = $1::uuid and line.product_id = product.id) as lines
  from products product where product.id = $2::uuid`,
);

/** Removes the line $3 (by its id, or by its product and choice key $6: see removeLine) from the cart of $1, under the operation id $2, announcing it with pg_notify($4, $5). */
const removal = (name: string, line: string) =>
  new PreparedStatement<OperationRow>(
    name,
    `with ${RECORD_OPERATION},
    removed as (delete from cart_items where user_id = $1::uuid and ${line} and exists (select from fresh) returning id),
    notice as (select pg_notify($4::text, $5::text) from removed)
    select exists (select from fresh) as fresh, exists (select from removed) as changed, (select count(*) from notice) as notices`,
  );
const removeLine = {
  byId: removal('cart_remove_line', 'id = $3::uuid'),
  byChoices: removal('cart_remove_choices', 'product_id = $3::uuid and md5(choice_key) = md5($6::text)'),
};

/** A product's line with these choices: the key they make, the choices as stored, the unit price, and the combination it counts (with what the cart's other lines hold of it). */
interface LineTarget {
  choices: LineChoices;
  key: string;
  priceMinor: number | null;
  combination: string | null;
  others: number | null;
}

const PLAIN_TARGET: LineTarget = { choices: NO_CHOICES, key: '', priceMinor: null, combination: null, others: null };

/** One operation: one statement for a product sold as it is, two for one with a model (its model first). */
async function applyOperation(db: Database, tx: Executor, userId: string, operation: CartOperation, readChart: ChartReader): Promise<Omit<CartOperationResult, 'id'>> {
  const { channel, payload } = changeNotice(userId, 'cart');
  if (operation.type === 'remove') {
    const [row] = await removeLine.byId.run(db, tx, [userId, operation.id, operation.itemId, channel, payload]);
    if (!row?.fresh) return { outcome: 'duplicate' };
    return { outcome: row.changed ? 'applied' : 'item_missing' };
  }
  // Operations queued before lines had choices carry none: a product sold as it is.
  const sent = operation.choices ?? NO_CHOICES;
  const sentKey = choiceKey(sent);
  if (operation.type === 'set' && operation.quantity === 0) {
    const [row] = await removeLine.byChoices.run(db, tx, [userId, operation.id, operation.productId, channel, payload, sentKey]);
    // Setting a line's quantity to 0 leaves it out of the cart whether or not it was there.
    return { outcome: row?.fresh ? 'applied' : 'duplicate' };
  }
  const quantity = operation.type === 'set' ? operation.quantity : null;
  const change = (target: LineTarget, plainOnly: boolean) =>
    changeLine.run(db, tx, [userId, operation.id, operation.productId, quantity, channel, payload, JSON.stringify(target.choices), target.key, target.priceMinor, target.combination, target.others, plainOnly]);
  if (sentKey === '') {
    const [row] = await change(PLAIN_TARGET, true);
    if (row && !row.modelled) return outcomeOf(row, null);
  }

  const [modelRow] = await lineModel.run(db, tx, [userId, operation.productId, operation.id]);
  // No such product: the statement records the id and answers product_missing.
  if (!modelRow) return outcomeOf((await change(PLAIN_TARGET, false))[0]!, null);
  if (modelRow.seen) return { outcome: 'duplicate' };
  const model = modelOfRow(modelRow, JSON.parse(modelRow.combinations) as CombinationStock[]);
  const lines = JSON.parse(modelRow.lines) as { choiceKey: string; choices: LineChoices; quantity: number }[];
  const existing = lines.find((line) => line.choiceKey === sentKey);
  let choices: LineChoices;
  if (existing && quantity !== null && quantity <= existing.quantity) {
    // Lowering a line asks for nothing new, so it needs no check: a line whose product changed since can still shrink.
    choices = existing.choices;
  } else {
    const checked = validateChoices(model, sent, model.sized ? await readChart() : DEFAULT_NAIL_SIZE_CHART);
    if ('problem' in checked) return { outcome: 'choices_invalid', problem: checked.problem };
    choices = checked.choices;
  }
  const key = existing && choices === existing.choices ? sentKey : choiceKey(choices);
  const combination = countedCombination(model, choices);
  const others =
    combination === null
      ? null
      : lines.filter((line) => line.choiceKey !== key && countedCombination(model, line.choices) === combination).reduce((sum, line) => sum + line.quantity, 0);
  const [row] = await change({ choices, key, priceMinor: unitPriceMinor(model, choices), combination, others }, false);
  return outcomeOf(row!, model);
}

function outcomeOf(row: LineChangeRow, model: ProductModel | null): Omit<CartOperationResult, 'id'> {
  if (!row.fresh) return { outcome: 'duplicate' };
  if (row.product_id === null) return { outcome: 'product_missing' };
  if (row.changed) return { outcome: 'applied' };
  if (row.on_sale === false && model) {
    // Removed from sale since the choices were checked.
    return { outcome: 'choices_invalid', problem: { field: `option:${model.optionGroups[0]?.id ?? ''}`, messageKey: 'choices.errors.combinationUnavailable' } };
  }
  const left = Math.max(0, (row.stock ?? 0) - (row.others ?? 0));
  return { outcome: 'stock_short', shortage: { productId: row.product_id, name: { en: row.name_en ?? '', bg: row.name_bg ?? '' }, wanted: row.wanted ?? 0, left } };
}

export interface CheckoutLine {
  id: string;
  productId: string;
  name: LocalizedText;
  /** The price of one piece with the line's choices (unitPriceMinor). */
  priceMinor: number;
  quantity: number;
  /** The count the line takes from: its combination's, for a product counting per combination, else the product's. */
  stock: number | null;
  /** The combination whose count the line takes, or null for the product's own. */
  combinationKey: string | null;
  addedAt: Date;
  choices: LineChoices;
  /** The choices with their names as the product has them now, which the order keeps. */
  summary: ChoiceSummary;
  /** Why the choices no longer fit the product, or null. */
  problem: ChoiceProblem | null;
  /** The working day the line is to be dispatched by, if ordered now. */
  dispatchBy: string;
  /** The product's rule for the right of withdrawal, which the order keeps as the buyer was told it. */
  returnRule: ReturnRule;
  /** A gift card sold, which the order issues once paid. */
  giftCard: boolean;
}

/** The columns the checkout reads of each line and its product, with the catalogue's currency and the size chart beside them. */
const CHECKOUT_LINE_FIELDS = {
  catalogueCurrency: catalogueCurrencyColumn,
  sizeChart: sizeChartColumn,
  id: cartItems.id,
  productId: cartItems.productId,
  addedAt: cartItems.addedAt,
  nameEn: products.nameEn,
  nameBg: products.nameBg,
  quantity: cartItems.quantity,
  choices: cartItems.choices,
  choiceKey: cartItems.choiceKey,
  priceMinor: products.priceMinor,
  stock: products.stock,
  optionGroups: products.optionGroups,
  stockMode: products.stockMode,
  sized: products.sized,
  questions: products.questions,
  leadKind: products.leadKind,
  leadMinDays: products.leadMinDays,
  leadMaxDays: products.leadMaxDays,
  personalised: products.personalised,
  hygieneSealed: products.hygieneSealed,
  category: products.category,
};

const checkoutLinesQuery = (tx: Executor) =>
  tx
    .select(CHECKOUT_LINE_FIELDS)
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(eq(cartItems.userId, sql.placeholder('userId')))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.id))
    .for('key share', { of: products });

let checkoutLinesStatement: PreparedQuery<Awaited<ReturnType<typeof checkoutLinesQuery>>[number], { userId: string }> | undefined;

/**
 * The checkout's read of the cart, built once and prepared once per connection, as the order's own
 * statement is (placeOrder): building it was about 0.1 ms of the server's CPU at every order, and
 * planning it about 0.14 ms of PostgreSQL's.
 */
function checkoutLines(tx: Executor) {
  checkoutLinesStatement ??= new PreparedQuery('checkout_cart_lines', checkoutLinesQuery(tx).toSQL(), CHECKOUT_LINE_FIELDS);
  return checkoutLinesStatement;
}

/**
 * The cart for checkout, in a transaction that holds the cart's lock (subjectLock('cart')) and the
 * catalogue's currency (catalogueCurrencyHold), taken by a statement before this one so that this
 * one sees what committed while they waited: cart operations wait until the order is placed. The
 * products stay until then too (a deletion, or an admin switching a product between counted and
 * made to order, waits), while other customers' checkouts and price changes go on. Names, prices
 * and counts are the products' current ones, and each line's choices are checked against its
 * product as it is now (and the size chart, read with them). Prices no longer in the currency the
 * server charges in are refused (503).
 *
 * A line of a product counting per combination holds its combination's row too, so that an admin
 * removing that combination waits until the order is placed, or, having removed it first, is seen:
 * the line then has a problem, and no removed combination is sold. That is one more statement, only
 * for carts that hold such products.
 */
export async function readCartForCheckout(db: Database, tx: Executor, userId: string, now: Date, chargedCurrency: Currency): Promise<CheckoutLine[]> {
  const rows = await checkoutLines(tx).run(db, tx, { userId });
  checkPricesCurrency(rows[0]?.catalogueCurrency, chargedCurrency);
  const lines = rows.map((row) => {
    const model: ProductModel = {
      priceMinor: row.priceMinor,
      optionGroups: row.optionGroups,
      stockMode: row.stockMode as StockMode,
      combinations: [],
      sized: row.sized,
      questions: row.questions,
      leadTime: leadTimeOf(row.leadKind, row.leadMinDays, row.leadMaxDays),
    };
    return { row, model, combination: countedCombination(model, row.choices) };
  });

  const counted = lines.filter((line) => line.combination !== null);
  const held =
    counted.length === 0
      ? []
      : await tx
          .select({ productId: productCombinations.productId, key: productCombinations.key, stock: productCombinations.stock })
          .from(productCombinations)
          .where(or(...counted.map((line) => and(eq(productCombinations.productId, line.row.productId), eq(productCombinations.key, line.combination!)))))
          .orderBy(asc(productCombinations.productId), asc(productCombinations.key))
          .for('key share');
  const chart = parseSizeChart(rows[0]?.sizeChart);

  return lines.map(({ row, model, combination }): CheckoutLine => {
    const found = combination === null ? undefined : held.find((candidate) => candidate.productId === row.productId && candidate.key === combination);
    if (found) model.combinations = [{ key: found.key, stock: found.stock }];
    const plain = row.choiceKey === '' && isPlainProduct(model);
    const checked = plain ? { choices: NO_CHOICES } : validateChoices(model, row.choices, chart);
    const choices = 'choices' in checked ? checked.choices : row.choices;
    return {
      id: row.id,
      productId: row.productId,
      name: { en: row.nameEn, bg: row.nameBg },
      priceMinor: unitPriceMinor(model, choices),
      quantity: row.quantity,
      stock: combination === null ? row.stock : (found?.stock ?? 0),
      combinationKey: combination,
      addedAt: row.addedAt,
      choices,
      summary: plain ? EMPTY_CHOICE_SUMMARY : summarizeChoices(model, choices),
      problem: 'problem' in checked ? checked.problem : null,
      dispatchBy: dispatchDate(model.leadTime, now),
      returnRule: returnRuleOf(row),
      giftCard: row.category === GIFT_CARD_CATEGORY,
    };
  });
}

/**
 * The removal of the lines an order took (a line added since stays), not yet run: the checkout runs
 * it within its own statement, which also announces the cart's change (see placeOrder). The lines'
 * ids are an array's text ({id,id}), from linesArray.
 */
export function orderedLinesRemoval(tx: Executor, userId: Placeholder, lineIds: Placeholder) {
  return tx.delete(cartItems).where(and(eq(cartItems.userId, userId), sql`${cartItems.id} = any(${lineIds}::uuid[])`));
}

/** The ids of the lines an order took, as orderedLinesRemoval takes them. */
export const linesArray = (lines: readonly CheckoutLine[]) => `{${lines.map((line) => line.id).join(',')}}`;

/** Empties the cart of a customer who deletes their account, and forgets its operation ids, in the caller's transaction. */
export async function deleteCart(tx: Executor, userId: string): Promise<void> {
  await tx.delete(cartItems).where(eq(cartItems.userId, userId));
  await tx.delete(appliedCartOperations).where(eq(appliedCartOperations.userId, userId));
}

/**
 * What the goods in the customer's cart weigh packed, in grams, from their products' weights: a product
 * without one counts as unknownPieceGrams; gift cards, sent by e-mail, weigh nothing.
 */
export async function cartWeightGrams(db: Executor, userId: string, unknownPieceGrams: number): Promise<number> {
  const [row] = await db
    .select({ grams: sql<string>`coalesce(sum(${cartItems.quantity} * coalesce(${products.weightGrams}, ${unknownPieceGrams})), 0)` })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .where(and(eq(cartItems.userId, userId), sql`${products.category} <> ${GIFT_CARD_CATEGORY}`));
  return Number(row?.grams ?? 0);
}
