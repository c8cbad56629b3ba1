import { pickText, type TextLanguage } from '#shared/catalog.js';
import { lineText, priceAmounts } from '#shared/money.js';
import type { Order } from '#shared/orders.js';
import { adminOrderPath, PAGE_ROUTES, profileOrderPath } from '#shared/routes.js';
import type { Executor } from '#server/db/client.js';
import type { MailBlock, MailDocument } from '#server/mail/mail-layout.js';
import type { ClaimedOrderMail } from '#server/mail/mail-queue.js';
import { fill } from '#server/mail/mail-texts.js';
import type { OrderMailSettings } from '#server/orders/order-mails.js';
import { refundForMail, withdrawalForMail } from './service.js';
import { SHOP_TIME_ZONE } from '#shared/sofia-time.js';

const TEXTS = {
  en: {
    ackSubject: 'We have received your withdrawal from order #{orderId}',
    ackHeading: 'Your withdrawal is recorded',
    greeting: 'Hello {name},',
    ackIntro: 'This e-mail confirms that we received your withdrawal from the contract, submitted on {date}. Please keep it: it is your acknowledgement on a durable medium.',
    statementHeading: 'Your statement',
    statement: 'I, {name}, hereby give notice that I withdraw from my contract of sale of the goods listed below, ordered on {ordered}, order #{orderId}.',
    reason: 'Reason given: {reason}',
    submitted: 'Submitted on',
    order: 'Order',
    ackEmail: 'Acknowledgement sent to',
    iban: 'IBAN for the refund',
    nextHeading: 'What happens next',
    next: 'Please send the goods back to us, or hand them over, without undue delay and no later than 14 days from today. We will refund the price of the withdrawn goods (and the standard delivery when you withdraw from the whole order) no later than 14 days from today, by the means you paid with; we may wait until we have received the goods back.',
    item: 'Item',
    price: 'Price',
    noticeSubject: 'Withdrawal from order #{orderId}',
    noticeHeading: 'A buyer withdrew from an order',
    noticeIntro: '{name} ({email}) withdrew from order #{orderId} on {date}.',
    noticeButton: 'Open the order',
    noticeWhy: 'You receive this e-mail because you are an admin of {shopName}.',
    refundSubject: 'Refund for order #{orderId}',
    refundHeading: 'We have refunded you',
    refundIntro: 'We have refunded {amount} for order #{orderId} on {date}.',
    refundProvider: 'The money goes back to the card or account you paid with; your bank may take a few days to show it.',
    refundBank: 'The money goes back by bank transfer to {iban}.',
    refundReason: 'Note: {reason}',
    viewOrder: 'View your order',
    questions: 'Questions? Write to {supportEmail} and mention order #{orderId}.',
    why: 'You receive this e-mail because you placed an order at {shopName}.',
  },
  bg: {
    ackSubject: 'Получихме отказа ви от поръчка № {orderId}',
    ackHeading: 'Отказът ви е регистриран',
    greeting: 'Здравейте,',
    ackIntro: 'С този имейл потвърждаваме, че получихме отказа ви от договора, изпратен на {date}. Моля, запазете го: това е потвърждението ви на траен носител.',
    statementHeading: 'Вашето заявление',
    statement: 'С настоящото аз, {name}, уведомявам, че се отказвам от сключения от мен договор за покупка на изброените по-долу стоки, поръчани на {ordered}, поръчка № {orderId}.',
    reason: 'Посочена причина: {reason}',
    submitted: 'Изпратено на',
    order: 'Поръчка',
    ackEmail: 'Потвърждението е изпратено до',
    iban: 'IBAN за възстановяване на сумата',
    nextHeading: 'Какво следва',
    next: 'Моля, изпратете ни стоките или ни ги предайте без неоправдано забавяне и не по-късно от 14 дни от днес. Ще ви възстановим цената на стоките, от които се отказвате (и стандартната доставка, ако се отказвате от цялата поръчка), не по-късно от 14 дни от днес, по начина, по който сте платили; можем да изчакаме, докато получим стоките обратно.',
    item: 'Продукт',
    price: 'Цена',
    noticeSubject: 'Отказ от поръчка № {orderId}',
    noticeHeading: 'Купувач се отказа от поръчка',
    noticeIntro: '{name} ({email}) се отказа от поръчка № {orderId} на {date}.',
    noticeButton: 'Отворете поръчката',
    noticeWhy: 'Получавате този имейл, защото сте администратор на {shopName}.',
    refundSubject: 'Възстановена сума по поръчка № {orderId}',
    refundHeading: 'Възстановихме ви сумата',
    refundIntro: 'Възстановихме ви {amount} по поръчка № {orderId} на {date}.',
    refundProvider: 'Сумата се връща по картата или сметката, с която платихте; банката ви може да я отрази до няколко дни.',
    refundBank: 'Сумата се превежда по банков път по сметка {iban}.',
    refundReason: 'Бележка: {reason}',
    viewOrder: 'Вижте поръчката си',
    questions: 'Имате въпрос? Пишете ни на {supportEmail}, като посочите поръчка № {orderId}.',
    why: 'Получавате този имейл, защото направихте поръчка в {shopName}.',
  },
} satisfies Record<TextLanguage, Record<string, string>>;

/** "Withdraw from contract here", leading to the form with the order filled in. */
export const withdrawalButton = (language: TextLanguage, publicUrl: string, orderId: string): MailBlock => ({
  kind: 'button',
  label: language === 'bg' ? 'Отказ от договора тук' : 'Withdraw from contract here',
  url: `${publicUrl}${PAGE_ROUTES.withdrawal}?order=${encodeURIComponent(orderId)}`,
});

/** A moment to the second, in Sofia's time, with the zone's name: "25 November 2026 at 14:03:27 EET". */
function submissionTime(at: string | Date, language: TextLanguage): string {
  return new Intl.DateTimeFormat(language === 'bg' ? 'bg-BG' : 'en-GB', { dateStyle: 'long', timeStyle: 'long', timeZone: SHOP_TIME_ZONE }).format(new Date(at));
}

const dayText = (at: string, language: TextLanguage) =>
  new Intl.DateTimeFormat(language === 'bg' ? 'bg-BG' : 'en-GB', { dateStyle: 'long', timeZone: SHOP_TIME_ZONE }).format(new Date(at));

/** The returns messages of an order: the buyer's acknowledgement, the owner's notice and the refund's word. */
export async function returnsMailDocument(db: Executor, mail: ClaimedOrderMail, order: Order, settings: OrderMailSettings, shopName: string): Promise<MailDocument> {
  const language = mail.language;
  const texts = TEXTS[language];
  const values = { orderId: order.orderId, shopName, supportEmail: settings.supportEmail };
  const t = (template: string, extra: Record<string, string> = {}) => fill(template, { ...values, ...extra });
  const money = (minor: number) => priceAmounts(minor, order.currency, language, settings.showBgnEquivalent).join(' / ');
  const url = (path: string) => `${settings.publicUrl}${path}`;
  const customerFooter = [t(texts.questions), t(texts.why)];
  if (!mail.subjectId) throw new Error(`A ${mail.kind} message names no withdrawal or refund`);

  if (mail.kind === 'refund_made') {
    const refund = await refundForMail(db, mail.subjectId);
    if (!refund) throw new Error(`Refund ${mail.subjectId} not found`);
    return {
      language,
      shopName,
      subject: t(texts.refundSubject),
      heading: t(texts.refundHeading),
      blocks: [
        { kind: 'paragraph', text: t(texts.greeting, { name: order.shippingAddress.fullName }) },
        { kind: 'paragraph', text: t(texts.refundIntro, { amount: money(refund.amountMinor), date: submissionTime(refund.createdAt, language) }) },
        { kind: 'paragraph', text: refund.method === 'bank_transfer' ? t(texts.refundBank, { iban: refund.iban ?? '' }) : texts.refundProvider },
        ...(refund.reason && refund.withdrawalId ? [{ kind: 'paragraph' as const, text: t(texts.refundReason, { reason: refund.reason }) }] : []),
        { kind: 'button', label: texts.viewOrder, url: url(profileOrderPath(order.orderId)) },
      ],
      footer: customerFooter,
    };
  }

  const withdrawal = await withdrawalForMail(db, mail.subjectId);
  if (!withdrawal) throw new Error(`Withdrawal ${mail.subjectId} not found`);
  const date = submissionTime(withdrawal.submittedAt, language);
  const items: MailBlock = {
    kind: 'items',
    head: [texts.item, texts.price],
    rows: withdrawal.lines.map((line) => [
      pickText(line.name, language).text,
      lineText(line, order.currency, language, settings.showBgnEquivalent, (amounts) => amounts.map((amount) => amount.replace(/ /g, '\u00a0')).join('\u00a0/ ')),
    ]),
  };
  if (mail.kind === 'withdrawal_notice') {
    return {
      language,
      shopName,
      subject: t(texts.noticeSubject),
      heading: t(texts.noticeHeading),
      blocks: [
        { kind: 'paragraph', text: t(texts.noticeIntro, { name: withdrawal.fullName, email: withdrawal.acknowledgementEmail, date }) },
        items,
        ...(withdrawal.reason ? [{ kind: 'paragraph' as const, text: t(texts.reason, { reason: withdrawal.reason }) }] : []),
        { kind: 'button', label: texts.noticeButton, url: url(adminOrderPath(order.orderId)) },
      ],
      footer: [t(texts.noticeWhy)],
    };
  }
  return {
    language,
    shopName,
    subject: t(texts.ackSubject),
    heading: t(texts.ackHeading),
    blocks: [
      { kind: 'paragraph', text: language === 'bg' ? texts.greeting : t(texts.greeting, { name: withdrawal.fullName }) },
      { kind: 'paragraph', text: t(texts.ackIntro, { date }) },
      { kind: 'heading', text: texts.statementHeading },
      { kind: 'paragraph', text: t(texts.statement, { name: withdrawal.fullName, ordered: dayText(order.createdAt, language) }) },
      items,
      ...(withdrawal.reason ? [{ kind: 'paragraph' as const, text: t(texts.reason, { reason: withdrawal.reason }) }] : []),
      {
        kind: 'facts',
        rows: [
          [texts.submitted, date],
          [texts.order, order.orderId],
          [texts.ackEmail, withdrawal.acknowledgementEmail],
          ...(withdrawal.iban ? [[texts.iban, withdrawal.iban] as [string, string]] : []),
        ],
      },
      { kind: 'heading', text: texts.nextHeading },
      { kind: 'paragraph', text: texts.next },
      { kind: 'button', label: texts.viewOrder, url: url(profileOrderPath(order.orderId)) },
    ],
    footer: customerFooter,
  };
}
