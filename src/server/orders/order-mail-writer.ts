import { pickText, type LocalizedText, type TextLanguage } from '#shared/catalog.js';
import { lineText, priceAmounts, taxPercentText } from '#shared/money.js';
import { taxRowOf } from '#shared/pricing.js';
import { isNotifiedStatus, type NotifiedStatus } from '#shared/order-mails.js';
import { amountDue, dayText, paymentStateOf, type Order } from '#shared/orders.js';
import { choicesText, hasChoices } from '#shared/product-options.js';
import { adminOrderPath, paymentPath, profileOrderPath } from '#shared/routes.js';
import type { Database } from '#server/db/client.js';
import { renderMail, type MailBlock, type MailDocument } from '#server/mail/mail-layout.js';
import type { ClaimedOrderMail } from '#server/mail/mail-queue.js';
import { fill, type MailTextBook, type MailTexts } from '#server/mail/mail-texts.js';
import type { MailMessage } from '#server/mail/mailer.js';
import { documentAttachments, documentsForMail } from '#server/invoices/document-mail.js';
import type { TaxDocumentContent } from '#shared/tax-documents.js';
import type { OrderMailSettings } from './order-mails.js';
import { getOrder } from './order-queries.js';
import { returnsMailDocument, withdrawalButton } from '#server/returns/returns-mails.js';
import { giftCardsOfOrder } from '#server/promotions/gift-cards.js';
import { linesToReview } from '#server/reviews/service.js';
import { formatGiftCardCode } from '#shared/gift-cards.js';
import { SHOP_TIME_ZONE } from '#shared/sofia-time.js';
import { formatIban } from '#shared/withdrawals.js';

/** Times in e-mails are the shop's own, in Bulgaria. */
const localeOf = (language: TextLanguage) => (language === 'bg' ? 'bg-BG' : 'en-GB');
const MAIL_DATE: Record<TextLanguage, Intl.DateTimeFormat> = {
  en: new Intl.DateTimeFormat(localeOf('en'), { dateStyle: 'long', timeStyle: 'short', timeZone: SHOP_TIME_ZONE }),
  bg: new Intl.DateTimeFormat(localeOf('bg'), { dateStyle: 'long', timeStyle: 'short', timeZone: SHOP_TIME_ZONE }),
};
const COUNTRY_NAMES: Record<TextLanguage, Intl.DisplayNames> = {
  en: new Intl.DisplayNames([localeOf('en')], { type: 'region' }),
  bg: new Intl.DisplayNames([localeOf('bg')], { type: 'region' }),
};

/** Writes the e-mail of a queued message from the order as it is now, in the message's language. */
export function orderMailComposer(db: Database, textBook: MailTextBook, settings: OrderMailSettings): (mail: ClaimedOrderMail) => Promise<MailMessage | null> {
  return async (mail: ClaimedOrderMail): Promise<MailMessage | null> => {
    const order = await getOrder(db, mail.orderId);
    const texts = textBook.texts(mail.language);
    const writer = new OrderMailWriter(order, texts, mail.language, settings);
    if (mail.kind === 'review_request') {
      // Reviewed meanwhile, or no longer delivered (returned, cancelled): nothing is left to ask.
      const lines = order.status === 'delivered' ? await linesToReview(db, order.orderId) : [];
      return lines.length > 0 ? { to: mail.recipient, ...renderMail(writer.reviewRequest(lines)) } : null;
    }
    const documents = await documentsForMail(db, mail);
    const document = await (async () => {
      switch (mail.kind) {
        case 'order_placed':
          return writer.confirmation();
        case 'payment_received':
          return writer.receipt();
        case 'invoice_issued':
        case 'invoice_corrected': {
          const invoice = documents.find((issued) => issued.content.kind === 'invoice')?.content;
          if (!invoice) throw new Error(`Order ${order.orderId} has no invoice to send`);
          const creditNote = documents.find((issued) => issued.content.kind === 'credit_note')?.content;
          return mail.kind === 'invoice_corrected' && creditNote ? writer.invoiceCorrected(invoice, creditNote) : writer.invoiceIssued(invoice);
        }
        case 'status_changed':
          if (!mail.orderStatus || !isNotifiedStatus(mail.orderStatus)) throw new Error(`No message for status ${mail.orderStatus}`);
          return writer.statusUpdate(mail.orderStatus);
        case 'new_order':
          return writer.ownerNotice();
        case 'withdrawal_received':
        case 'withdrawal_notice':
        case 'refund_made':
          return returnsMailDocument(db, mail, order, settings, texts.shopName);
        case 'gift_cards_issued':
          return writer.giftCardsIssued(await giftCardsOfOrder(db, order.orderId));
        case 'review_request':
          throw new Error('A review request is written above');
      }
    })();
    const attached = documents.length > 0 ? [attachedDocumentsNote(texts, mail.language, documents.map((issued) => issued.content))] : [];
    return { to: mail.recipient, ...renderMail({ ...document, blocks: [...document.blocks, ...attached] }), attachments: await documentAttachments(db, documents, mail.language) };
  };
}

/** "Attached to this e-mail: invoice No. 0000000001, sale document No. 0000000001 (PDF...)." */
function attachedDocumentsNote(texts: MailTexts, language: TextLanguage, documents: readonly TaxDocumentContent[]): MailBlock {
  const names = documents.map((document) => fill(texts.documents[document.kind], { number: document.number })).join(', ');
  return { kind: 'paragraph', text: fill(language === 'en' ? texts.documents.attachedWithCopy : texts.documents.attached, { documents: names }) };
}

class OrderMailWriter {
  private readonly values: Record<string, string>;

  constructor(
    private readonly order: Order,
    private readonly texts: MailTexts,
    private readonly language: TextLanguage,
    private readonly settings: OrderMailSettings,
  ) {
    this.values = {
      shopName: texts.shopName,
      orderId: order.orderId,
      name: order.shippingAddress.fullName,
      email: order.customerEmail,
      total: this.money(order.pricing.total),
      // What is left to pay once a gift card has paid its part: what the payment link or the courier asks for.
      due: this.money(amountDue(order)),
      supportEmail: settings.supportEmail,
      percent: taxPercentText(order.pricing.taxRateBasisPoints),
    };
  }

  private t(template: string, extra: Record<string, string> = {}): string {
    return fill(template, { ...this.values, ...extra });
  }

  /** An amount of the order, in its currency; in a euro shop during the changeover, with its BGN equivalent. */
  private money(minor: number): string {
    return priceAmounts(minor, this.order.currency, this.language, this.settings.showBgnEquivalent).join(' / ');
  }

  /** A line as every screen writes it: quantity × unit price = line total. An amount is never parted from its currency when the line wraps. */
  private line(item: { priceMinor: number; quantity: number }): string {
    return lineText(item, this.order.currency, this.language, this.settings.showBgnEquivalent, (amounts) => amounts.map((amount) => amount.replace(/ /g, '\u00a0')).join('\u00a0/ '));
  }

  private date(iso: string): string {
    return MAIL_DATE[this.language].format(new Date(iso));
  }

  private url(path: string): string {
    return `${this.settings.publicUrl}${path}`;
  }

  private customerFooter(): string[] {
    return [this.t(this.texts.order.questions), this.t(this.texts.order.why)];
  }

  private viewOrderButton(): MailBlock {
    return { kind: 'button', label: this.t(this.texts.order.viewOrder), url: this.url(profileOrderPath(this.order.orderId)) };
  }

  private summary(): MailBlock[] {
    const { order, texts } = this;
    const method = order.delivery.method;
    // A courier's method names its shipping line ("Shipping (To an Econt office)"); the shop's own delivery is plain "Shipping".
    const shippingLabel = method === 'address' ? texts.order.shipping : `${texts.order.shipping} (${texts.order.deliveryMethods[method]})`;
    const taxRow = taxRowOf(order.pricing);
    return [
      { kind: 'heading', text: this.t(texts.order.number) },
      { kind: 'paragraph', text: this.t(texts.order.placedOn, { date: this.date(order.createdAt) }) },
      ...this.shipsBy(),
      this.items(),
      {
        kind: 'facts',
        emphasizeLast: true,
        rows: [
          [texts.order.subtotal, this.money(order.pricing.subtotal)],
          ...this.discountRows(),
          ...(taxRow === 'added' ? [[this.t(texts.order.tax), this.money(order.pricing.tax)] as [string, string]] : []),
          [shippingLabel, order.pricing.shipping === 0 && order.pricing.subtotal > 0 ? texts.order.freeShipping : this.money(order.pricing.shipping)],
          ...(order.pricing.fee > 0 ? [[texts.order.cashOnDeliveryFee, this.money(order.pricing.fee)] as [string, string]] : []),
          // Final prices contain the tax: a plain row of what the amounts above hold, so that the total stays the last, bold row.
          ...(taxRow === 'included' ? [[this.t(texts.order.taxIncluded), this.money(order.pricing.tax)] as [string, string]] : []),
          [texts.order.total, this.money(order.pricing.total)],
          // A gift card is a payment, not a discount: under the total it pays part of, then what is left to pay.
          ...(order.giftCard
            ? ([
                [this.t(texts.order.giftCard, { ending: order.giftCard.ending }), `−${this.money(order.giftCard.paidMinor)}`],
                [texts.order.amountDue, this.money(amountDue(order))],
              ] as [string, string][])
            : []),
        ],
      },
    ];
  }

  /** The discount code's row, under the subtotal: what it took off the products, or free shipping. */
  private discountRows(): [string, string][] {
    const { discount, discountCode } = this.order.pricing;
    if (!discountCode) return [];
    return [[this.t(this.texts.order.discount, { code: discountCode }), discount > 0 ? `−${this.money(discount)}` : this.texts.order.discountFreeShipping]];
  }

  /** The order's lines, each with its choices in small print ("Almond · Medium · Sizes 3-6-5-7-9 / 3-6-5-7-9"). */
  private items(): MailBlock {
    const { texts, language } = this;
    return {
      kind: 'items',
      head: [texts.order.item, texts.order.price],
      rows: this.order.items.map((item) => {
        const detail = hasChoices(item.choices) ? choicesText(item.choices, language, texts.order.sizes) : undefined;
        return detail ? [pickText(item.name, language).text, this.line(item), detail] : [pickText(item.name, language).text, this.line(item)];
      }),
    };
  }

  /** "Ships by Thu 3 Dec": the day the whole order is to leave, for orders placed since lead times. */
  private shipsBy(): MailBlock[] {
    const { dispatchBy } = this.order;
    return dispatchBy ? [{ kind: 'paragraph', text: this.t(this.texts.order.shipsBy, { date: dayText(dispatchBy, this.language) }) }] : [];
  }

  private address(): MailBlock[] {
    const { office, method } = this.order.delivery;
    const texts = this.texts.order;
    if (office) {
      const { language } = this;
      return [
        { kind: 'heading', text: texts.deliveryMethods[method] },
        { kind: 'lines', lines: [office.name[language], office.address[language], [office.postCode, office.city[language]].filter(Boolean).join(' ')] },
        { kind: 'paragraph', text: this.t(texts.recipient, { name: this.order.shippingAddress.fullName, phone: this.order.shippingAddress.phone }) },
      ];
    }
    return [...(method === 'address' ? [] : [{ kind: 'paragraph' as const, text: texts.deliveryMethods[method] }]), ...this.postalAddress()];
  }

  /** Where a sent parcel can be followed: the courier's page, or the number the shop sent it under. */
  private tracking(): MailBlock[] {
    const shipment = this.order.delivery.shipment;
    if (!shipment?.trackingNumber) return [];
    const texts = this.texts.order;
    if (shipment.courier === 'manual' || !shipment.trackingUrl) return [{ kind: 'paragraph', text: this.t(texts.trackingNumber, { number: shipment.trackingNumber }) }];
    return [
      { kind: 'paragraph', text: this.t(texts.tracking, { courier: texts.couriers[shipment.courier], number: shipment.trackingNumber }) },
      { kind: 'button', label: texts.trackParcel, url: shipment.trackingUrl },
    ];
  }

  private postalAddress(): MailBlock[] {
    const address = this.order.shippingAddress;
    const country = COUNTRY_NAMES[this.language].of(address.country) ?? address.country;
    return [
      { kind: 'heading', text: this.texts.order.shippingAddress },
      {
        kind: 'lines',
        lines: [
          address.fullName,
          [address.streetAddress, address.apartment].filter(Boolean).join(', '),
          [address.postalCode, address.city, address.state].filter(Boolean).join(' '),
          country,
          address.phone,
        ],
      },
    ];
  }

  private methodText(): string {
    const payment = this.order.payment;
    const method = this.texts.order.methods[payment?.method ?? this.order.paymentMethod];
    return payment?.cardLast4 ? this.t(this.texts.order.cardEnding, { method, last4: payment.cardLast4 }) : method;
  }

  /** Where to transfer the money, and the reference that names the order. */
  private bankTransfer(): MailBlock[] {
    const account = this.settings.bankAccount;
    if (!account) return [];
    const words = this.texts.orderPlaced.bankDetails;
    return [
      { kind: 'paragraph', text: this.t(this.texts.orderPlaced.bankTransfer) },
      {
        kind: 'lines',
        lines: [
          `${words.accountName}: ${account.accountName}`,
          `${words.iban}: ${formatIban(account.iban)}`,
          ...(account.bic ? [`${words.bic}: ${account.bic}`] : []),
          `${words.reference}: ${this.t(words.referenceText)}`,
        ],
      },
    ];
  }

  confirmation(): MailDocument {
    const { texts } = this;
    const state = paymentStateOf(this.order);
    const payment: MailBlock[] =
      state === 'payable'
        ? [
            { kind: 'paragraph', text: this.t(texts.orderPlaced.payIntro) },
            { kind: 'button', label: texts.orderPlaced.payButton, url: this.url(paymentPath(this.order.orderId)) },
          ]
        : state === 'paid'
          ? [{ kind: 'paragraph', text: texts.orderPlaced.alreadyPaid }]
          : state === 'cashOnDelivery'
            ? [{ kind: 'paragraph', text: this.t(texts.orderPlaced.cashOnDelivery) }]
            : state === 'bankTransfer'
              ? this.bankTransfer()
              : [];
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.orderPlaced.subject),
      heading: this.t(texts.orderPlaced.heading),
      blocks: [
        { kind: 'paragraph', text: this.t(texts.order.greeting) },
        { kind: 'paragraph', text: this.t(texts.orderPlaced.intro) },
        ...payment,
        ...this.summary(),
        ...this.address(),
        { kind: 'facts', rows: [[texts.order.paymentMethod, this.methodText()]] },
        this.viewOrderButton(),
      ],
      footer: this.customerFooter(),
    };
  }

  /** The codes of the gift cards the order bought, each with its value. */
  giftCardsIssued(cards: readonly { code: string; initialMinor: number }[]): MailDocument {
    const { texts } = this;
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.giftCardsIssued.subject),
      heading: this.t(texts.giftCardsIssued.heading),
      blocks: [
        { kind: 'paragraph', text: this.t(texts.order.greeting) },
        { kind: 'paragraph', text: this.t(texts.giftCardsIssued.intro) },
        { kind: 'facts', rows: cards.map((card): [string, string] => [this.t(texts.giftCardsIssued.card, { amount: this.money(card.initialMinor) }), formatGiftCardCode(card.code)]) },
        { kind: 'paragraph', text: this.t(texts.giftCardsIssued.howTo) },
        this.viewOrderButton(),
      ],
      footer: this.customerFooter(),
    };
  }

  /** Some days after delivery: what is still to review, and the way to her order, where she reviews it. */
  reviewRequest(lines: readonly { name: LocalizedText }[]): MailDocument {
    const { texts } = this;
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.reviewRequest.subject),
      heading: this.t(texts.reviewRequest.heading),
      blocks: [
        { kind: 'paragraph', text: this.t(texts.order.greeting) },
        { kind: 'paragraph', text: this.t(texts.reviewRequest.intro) },
        { kind: 'heading', text: texts.reviewRequest.lines },
        { kind: 'lines', lines: lines.map((line) => pickText(line.name, this.language).text) },
        { kind: 'button', label: texts.reviewRequest.button, url: this.url(profileOrderPath(this.order.orderId)) },
      ],
      footer: [this.t(texts.reviewRequest.why)],
    };
  }

  receipt(): MailDocument {
    const { texts, order } = this;
    const payment = order.payment;
    if (!payment) throw new Error(`Order ${order.orderId} has no payment to confirm`);
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.paymentReceived.subject),
      heading: this.t(texts.paymentReceived.heading),
      blocks: [
        { kind: 'paragraph', text: this.t(texts.order.greeting) },
        { kind: 'paragraph', text: this.t(texts.paymentReceived.intro, { amount: this.money(payment.amountMinor) }) },
        { kind: 'heading', text: texts.paymentReceived.receipt },
        {
          kind: 'facts',
          rows: [
            [texts.paymentReceived.paymentId, payment.paymentId],
            [texts.paymentReceived.paidOn, this.date(payment.processedAt)],
            [texts.paymentReceived.method, this.methodText()],
            [texts.paymentReceived.amount, this.money(payment.amountMinor)],
          ],
          emphasizeLast: true,
        },
        ...this.summary(),
        this.viewOrderButton(),
      ],
      footer: this.customerFooter(),
    };
  }

  /** The invoice the buyer asked for after the payment, which comes attached. */
  invoiceIssued(invoice: TaxDocumentContent): MailDocument {
    const { texts } = this;
    const values = { number: invoice.number, buyer: invoice.buyer?.name ?? '' };
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.invoiceIssued.subject, values),
      heading: this.t(texts.invoiceIssued.heading, values),
      blocks: [{ kind: 'paragraph', text: this.t(texts.order.greeting) }, { kind: 'paragraph', text: this.t(texts.invoiceIssued.intro, values) }, this.viewOrderButton()],
      footer: this.customerFooter(),
    };
  }

  /** The invoice made out again to a corrected buyer, with the credit note that cancels the one before; both come attached. */
  invoiceCorrected(invoice: TaxDocumentContent, creditNote: TaxDocumentContent): MailDocument {
    const { texts } = this;
    const values = { number: invoice.number, buyer: invoice.buyer?.name ?? '', creditNote: creditNote.number, replaced: creditNote.corrects?.number ?? '' };
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.invoiceCorrected.subject, values),
      heading: this.t(texts.invoiceCorrected.heading, values),
      blocks: [{ kind: 'paragraph', text: this.t(texts.order.greeting) }, { kind: 'paragraph', text: this.t(texts.invoiceCorrected.intro, values) }, this.viewOrderButton()],
      footer: this.customerFooter(),
    };
  }

  statusUpdate(status: NotifiedStatus): MailDocument {
    const { texts } = this;
    const wording = texts.statusChanged[status];
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(wording.subject),
      heading: this.t(wording.heading),
      blocks: [
        { kind: 'paragraph', text: this.t(texts.order.greeting) },
        { kind: 'paragraph', text: this.t(wording.body) },
        // While the order is being made, the day it is to leave still matters to the customer.
        ...(status === 'preparing' ? this.shipsBy() : []),
        this.items(),
        ...(status === 'sent' ? [...this.tracking(), ...this.address()] : []),
        this.viewOrderButton(),
        // The withdrawal button stays within reach for the 14 days that start now.
        ...(status === 'delivered' ? [withdrawalButton(this.language, this.settings.publicUrl, this.order.orderId)] : []),
      ],
      footer: this.customerFooter(),
    };
  }

  ownerNotice(): MailDocument {
    const { texts, order } = this;
    const state = paymentStateOf(order);
    const payment = state === 'payable' ? texts.newOrder.payment : state === 'paid' ? texts.newOrder.paid : undefined;
    return {
      language: this.language,
      shopName: texts.shopName,
      subject: this.t(texts.newOrder.subject),
      heading: this.t(texts.newOrder.heading),
      blocks: [
        { kind: 'paragraph', text: this.t(texts.newOrder.intro) },
        ...(payment ? [{ kind: 'paragraph' as const, text: this.t(payment, { method: this.methodText() }) }] : []),
        { kind: 'button', label: texts.newOrder.button, url: this.url(adminOrderPath(order.orderId)) },
        ...this.summary(),
        ...this.address(),
      ],
      footer: [this.t(texts.newOrder.why)],
    };
  }
}
