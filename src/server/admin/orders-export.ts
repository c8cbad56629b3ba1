import { and, asc, gte, inArray, lt, sql } from 'drizzle-orm';
import type { TextLanguage } from '#shared/catalog.js';
import { csvRow } from '#shared/csv.js';
import { normalizeOrderStatus, type OrderStatus } from '#shared/order-status.js';
import type { PaymentMethod } from '#shared/orders.js';
import { nextDay } from '#shared/working-days.js';
import { sofiaDateTime, sofiaMidnight } from '#shared/sofia-time.js';
import type { Executor } from '#server/db/client.js';
import { orderItems, orders, payments } from '#server/db/schema.js';
import { HttpError } from '#server/http/errors.js';

/** Orders read at a time: the export never holds more than a page of them. */
const PAGE_SIZE = 500;
/** The longest period one export covers. */
const MAX_DAYS = 400;

// The same words as the admin's screens (orders.status in the client's texts), for a file read without them.
const WORDS = {
  en: {
    headers: ['Order', 'Ordered at', 'Paid at', 'Status', 'E-mail', 'Customer', 'Lines', 'Subtotal', 'Discount', 'Discount code', 'Net', 'VAT', 'Shipping', 'Cash on delivery fee', 'Total', 'Currency', 'Payment method'],
    status: { pending: 'Pending', accepted: 'Accepted', paid: 'Paid', preparing: 'Preparing', ready: 'Ready for pickup', sent: 'Sent', delivered: 'Delivered', cancelled: 'Cancelled' },
    methods: { card: 'Card', pay_by_link: 'Pay by link', cash_on_delivery: 'Cash on delivery', bank_transfer: 'Bank transfer' },
  },
  bg: {
    headers: ['Поръчка', 'Дата на поръчката', 'Платена на', 'Състояние', 'Имейл', 'Клиент', 'Артикули', 'Междинна сума', 'Отстъпка', 'Код за отстъпка', 'Без ДДС', 'ДДС', 'Доставка', 'Такса за наложен платеж', 'Общо', 'Валута', 'Начин на плащане'],
    status: { pending: 'Очаква плащане', accepted: 'Приета', paid: 'Платена', preparing: 'Подготвя се', ready: 'Готова за вземане', sent: 'Изпратена', delivered: 'Доставена', cancelled: 'Отменена' },
    methods: { card: 'Карта', pay_by_link: 'Плащане чрез линк', cash_on_delivery: 'Наложен платеж', bank_transfer: 'Банков превод' },
  },
} satisfies Record<TextLanguage, { headers: string[]; status: Record<OrderStatus, string>; methods: Record<PaymentMethod, string> }>;

export interface ExportPeriod {
  from: string;
  to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (text: string) => DAY.test(text) && new Date(`${text}T12:00:00Z`).toISOString().slice(0, 10) === text;

/** The moments a period of days in Sofia (both days included) begins and ends; a period that is none is refused. */
export function periodBounds({ from, to }: ExportPeriod): { start: Date; end: Date } {
  if (!isDay(from) || !isDay(to) || from < '2000-01-01') throw new HttpError(400, 'bad_request', 'Give the period as two days, such as 2026-11-01 and 2026-11-30.', { messageKey: 'admin.ordersExport.errors.invalidPeriod' });
  if (to < from) throw new HttpError(400, 'bad_request', 'The period ends before it begins.', { messageKey: 'admin.ordersExport.errors.endsBeforeStart' });
  const start = sofiaMidnight(from);
  const end = sofiaMidnight(nextDay(to));
  if (end.getTime() - start.getTime() > MAX_DAYS * 86_400_000) throw new HttpError(400, 'bad_request', `A period is at most ${MAX_DAYS} days.`, { messageKey: 'admin.ordersExport.errors.tooLong' });
  return { start, end };
}

/**
 * The orders placed in the period, for the accountant: one row per order with its lines, amounts,
 * status and payment, as CSV that Excel opens as it is: UTF-8 with a byte order mark, and in
 * Bulgarian the headers, words, decimal commas and semicolons that a Bulgarian Excel expects (its
 * list separator). Read a page at a time in the order placed.
 */
export async function* ordersCsv(db: Executor, period: ExportPeriod, language: TextLanguage, pageSize = PAGE_SIZE): AsyncGenerator<string> {
  const { start, end } = periodBounds(period);
  const words = WORDS[language];
  const separator = language === 'bg' ? ';' : ',';
  const row = (cells: string[]) => csvRow(cells, separator);
  // No thousands separator, which a spreadsheet would read as text.
  const amount = (minor: number) => (language === 'bg' ? (minor / 100).toFixed(2).replace('.', ',') : (minor / 100).toFixed(2));
  const time = (moment: Date | null) => (moment ? sofiaDateTime(moment).replace('T', ' ') : '');
  yield `\uFEFF${row(words.headers)}`;
  // The last order read, its time as the database has it: in microseconds, which a Date would cut to milliseconds.
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    const rows = await db
      .select({ order: orders, createdAtExact: sql<string>`${orders.createdAt}::text` })
      .from(orders)
      .where(and(gte(orders.createdAt, start), lt(orders.createdAt, end), after ? sql`(${orders.createdAt}, ${orders.id}) > (${after.createdAt}::timestamptz, ${after.id})` : undefined))
      .orderBy(asc(orders.createdAt), asc(orders.id))
      .limit(pageSize);
    if (rows.length === 0) return;
    const page = rows.map((row) => row.order);
    const ids = page.map((order) => order.id);
    const lines = await db.select().from(orderItems).where(inArray(orderItems.orderId, ids)).orderBy(asc(orderItems.orderId), asc(orderItems.position));
    const paid = new Map((await db.select({ orderId: payments.orderId, processedAt: payments.processedAt }).from(payments).where(inArray(payments.orderId, ids))).map((payment) => [payment.orderId, payment.processedAt]));
    let text = '';
    for (const order of page) {
      const ownLines = lines.filter((line) => line.orderId === order.id);
      const described = ownLines
        .map((line) => {
          const name = (language === 'bg' ? line.nameBg || line.nameEn : line.nameEn || line.nameBg) || '?';
          return `${name} × ${line.quantity} (${amount(line.priceMinor)})`;
        })
        .join('; ');
      text += row([
        order.id,
        time(order.orderedAt),
        time(paid.get(order.id) ?? null),
        words.status[normalizeOrderStatus(order.status)],
        order.customerEmail,
        order.shippingFullName,
        described,
        amount(order.subtotalMinor),
        amount(order.discountMinor),
        order.discountCode ?? '',
        amount(order.totalMinor - order.taxMinor),
        amount(order.taxMinor),
        amount(order.shippingMinor),
        amount(order.feeMinor),
        amount(order.totalMinor),
        order.currency,
        words.methods[order.paymentMethod as PaymentMethod] ?? order.paymentMethod,
      ]);
    }
    yield text;
    const last = rows.at(-1)!;
    after = { createdAt: last.createdAtExact, id: last.order.id };
    if (rows.length < pageSize) return;
  }
}
