import { createRequire } from 'node:module';
import path from 'node:path';
import QRCode from 'qrcode';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';
import { formatMinor, taxPercentText, type Currency } from '#shared/money.js';
import type { TaxDocumentContent } from '#shared/tax-documents.js';
import { sofiaDate } from '#shared/sofia-time.js';
import { bulgarianAmountInWords, englishAmountInWords } from './amount-in-words.js';
import { saleQrText } from './sale-qr.js';

/**
 * An issued document as a PDF of one or more A4 pages, in Bulgarian (the original) or as an English
 * copy, from its frozen content alone: the same document gives the same pages whenever it is made.
 * DejaVu Sans is embedded (its subset) because the standard PDF fonts have no Cyrillic.
 */

const require = createRequire(import.meta.url);
const FONTS = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');

type Language = 'bg' | 'en';

const TEXTS = {
  bg: {
    title: { invoice: 'Фактура', credit_note: 'Кредитно известие', sale_document: 'Документ за регистриране на продажба' },
    original: 'Оригинал',
    copy: 'Копие',
    number: 'Номер',
    issued: 'Дата на издаване',
    taxableEvent: 'Дата на данъчното събитие',
    corrects: 'Към фактура',
    replaces: 'Издадена вместо фактура',
    of: 'от',
    seller: 'Доставчик',
    buyer: 'Получател',
    uic: 'ЕИК',
    vatNumber: 'ИН по ДДС',
    responsiblePerson: 'МОЛ',
    address: 'Адрес',
    napShopNumber: 'Номер на е-магазина в НАП',
    order: 'Поръчка',
    columns: ['№', 'Наименование', 'Кол.', 'Ед. цена без ДДС', 'ДДС %', 'ДДС', 'Стойност'],
    columnsWithoutVat: ['№', 'Наименование', 'Кол.', 'Ед. цена', 'Стойност'],
    net: 'Данъчна основа',
    vat: 'ДДС',
    total: 'Сума за плащане',
    totalCredited: 'Сума за възстановяване',
    totalInBgn: 'Равностойност в лева по фиксирания курс 1,95583 лв. за 1 евро',
    discount: 'Отстъпка с код {code}, приспадната в стойността на редовете',
    inWords: 'Словом',
    payment: 'Начин на плащане',
    methods: { card: 'с карта', pay_by_link: 'чрез връзка за плащане', cash_on_delivery: 'наложен платеж', bank_transfer: 'по банков път', gift_card: 'с карта за подарък' },
    giftCard: 'Платено с карта за подарък …{ending} (платежно средство, не отстъпка)',
    rest: 'Остатък, платен {method}',
    transaction: 'Референтен номер на трансакцията',
    paidAt: 'Платено на',
    noVat: 'Основание за неначисляване на ДДС: чл. 113, ал. 9 от ЗДДС (доставчикът не е регистриран по ЗДДС).',
    currencyName: { BGN: 'лв.', EUR: 'евро' },
  },
  en: {
    title: { invoice: 'Invoice', credit_note: 'Credit note', sale_document: 'Sale document' },
    original: 'Original',
    copy: 'Copy in English',
    number: 'Number',
    issued: 'Date of issue',
    taxableEvent: 'Date of the taxable event',
    corrects: 'Corrects invoice',
    replaces: 'Issued in place of invoice',
    of: 'of',
    seller: 'Seller',
    buyer: 'Buyer',
    uic: 'UIC',
    vatNumber: 'VAT number',
    responsiblePerson: 'Responsible person',
    address: 'Address',
    napShopNumber: 'E-shop number with the NRA',
    order: 'Order',
    columns: ['No.', 'Description', 'Qty', 'Unit price excl. VAT', 'VAT %', 'VAT', 'Value'],
    columnsWithoutVat: ['No.', 'Description', 'Qty', 'Unit price', 'Value'],
    net: 'Taxable amount',
    vat: 'VAT',
    total: 'Amount due',
    totalCredited: 'Amount refunded',
    totalInBgn: 'In leva at the fixed rate of 1.95583 BGN per euro',
    discount: 'Discount with code {code}, taken off the lines\' amounts',
    inWords: 'In words',
    payment: 'Payment',
    methods: { card: 'by card', pay_by_link: 'by payment link', cash_on_delivery: 'cash on delivery', bank_transfer: 'by bank transfer', gift_card: 'by gift card' },
    giftCard: 'Paid with gift card …{ending} (a means of payment, not a discount)',
    rest: 'The rest, paid {method}',
    transaction: 'Transaction reference',
    paidAt: 'Paid on',
    noVat: 'No VAT charged: the seller is not registered for VAT (art. 113(9) of the Bulgarian VAT Act).',
    currencyName: { BGN: 'BGN', EUR: 'EUR' },
  },
} as const;

/** 26.11.2026, as Bulgarian documents write dates; 2026-11-26 in the English copy. */
const dateText = (moment: string, language: Language) => {
  const date = sofiaDate(new Date(moment));
  return language === 'bg' ? date.split('-').reverse().join('.') : date;
};

const money = (minor: number, currency: Currency, language: Language) => `${formatMinor(minor, language)} ${TEXTS[language].currencyName[currency]}`;

const FINE_AMOUNT: Record<Language, Intl.NumberFormat> = {
  en: new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 4 }),
  bg: new Intl.NumberFormat('bg', { minimumFractionDigits: 2, maximumFractionDigits: 4 }),
};

/** A unit price to the cent, or to the hundredth of a cent where the net price of one piece has more. */
function unitPrice(minor: number, language: Language): string {
  const rounded = Math.round(minor);
  if (rounded === minor) return formatMinor(minor, language);
  return FINE_AMOUNT[language].format(minor / 100);
}

function partyLines(party: { name: string; uic?: string; vatNumber?: string; responsiblePerson?: string; address: string }, texts: (typeof TEXTS)[Language]): string[] {
  return [
    party.name,
    ...(party.uic ? [`${texts.uic}: ${party.uic}`] : []),
    ...(party.vatNumber ? [`${texts.vatNumber}: ${party.vatNumber}`] : []),
    ...(party.responsiblePerson ? [`${texts.responsiblePerson}: ${party.responsiblePerson}`] : []),
    `${texts.address}: ${party.address}`,
  ];
}

const buyerParty = (buyer: InvoiceBuyer) =>
  buyer.kind === 'company' ? { name: buyer.name, uic: buyer.uic, vatNumber: buyer.vatNumber, responsiblePerson: buyer.responsiblePerson, address: buyer.address } : { name: buyer.name, address: buyer.address };

/** Приложение № 18а asks for a code of at least 18 × 18 mm: 25 mm here, drawn as squares, with its text under it. */
function drawQrCode(pdf: PDFKit.PDFDocument, text: string): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const side = (25 / 25.4) * 72;
  const cell = side / modules.size;
  if (pdf.y + side + 40 > pdf.page.height - pdf.page.margins.bottom) pdf.addPage();
  const left = pdf.page.margins.left;
  const top = pdf.y + 12;
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) pdf.rect(left + column * cell, top + row * cell, cell, cell);
    }
  }
  pdf.fill('#000000');
  pdf.font('regular').fontSize(8).text(text, left, top + side + 6);
}

const FILE_NAMES: Record<TaxDocumentContent['kind'], string> = { invoice: 'invoice', credit_note: 'credit-note', sale_document: 'sale-document' };

/** invoice-0000000001.pdf, or invoice-0000000001-en.pdf for the English copy. */
export const documentFileName = (document: Pick<TaxDocumentContent, 'kind' | 'number'>, language: Language) =>
  `${FILE_NAMES[document.kind]}-${document.number}${language === 'en' ? '-en' : ''}.pdf`;

export async function documentPdf(document: TaxDocumentContent, language: Language): Promise<Buffer> {
  // Loaded at the first document, not at every start of the server: pdfkit alone took 150 ms of it.
  const { default: PDFDocument } = await import('pdfkit');
  const texts = TEXTS[language];
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 48,
    info: { Title: `${texts.title[document.kind]} ${document.number}`, Author: document.seller.legalName, CreationDate: new Date(document.issuedAt) },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('regular', path.join(FONTS, 'DejaVuSans.ttf'));
  pdf.registerFont('bold', path.join(FONTS, 'DejaVuSans-Bold.ttf'));
  const left = pdf.page.margins.left;
  const width = pdf.page.width - left - pdf.page.margins.right;
  const vatShown = document.seller.vatNumber !== '';
  const { currency } = document;

  pdf.font('bold').fontSize(18).text(texts.title[document.kind].toUpperCase(), { align: 'center' });
  pdf.font('regular').fontSize(10).text(language === 'bg' ? texts.original : texts.copy, { align: 'center' });
  pdf.moveDown();
  pdf.text(`${texts.number}: ${document.number}`);
  pdf.text(`${texts.issued}: ${dateText(document.issuedAt, language)}`);
  pdf.text(`${texts.taxableEvent}: ${dateText(document.taxableEventAt, language)}`);
  if (document.corrects) pdf.text(`${document.kind === 'invoice' ? texts.replaces : texts.corrects} ${document.corrects.number} ${texts.of} ${dateText(document.corrects.issuedAt, language)}`);
  pdf.text(`${texts.order}: ${document.orderId}`);
  pdf.moveDown();

  // Seller and buyer side by side.
  const top = pdf.y;
  const column = (width - 16) / 2;
  const seller = partyLines({ name: document.seller.legalName, uic: document.seller.uic, vatNumber: document.seller.vatNumber, address: document.seller.address }, texts);
  if (document.kind === 'sale_document' && document.seller.napShopNumber) seller.push(`${texts.napShopNumber}: ${document.seller.napShopNumber}`);
  pdf.font('bold').text(texts.seller, left, top, { width: column });
  pdf.font('regular').text(seller.join('\n'), { width: column });
  const sellerBottom = pdf.y;
  if (document.buyer) {
    pdf.font('bold').text(texts.buyer, left + column + 16, top, { width: column });
    pdf.font('regular').text(partyLines(buyerParty(document.buyer), texts).join('\n'), { width: column });
  }
  pdf.y = Math.max(sellerBottom, pdf.y) + 16;

  // The lines: number, description, quantity, unit price without VAT, rate, VAT and value.
  const widths = vatShown ? [24, 0, 40, 80, 40, 60, 70] : [24, 0, 40, 90, 80];
  widths[1] = width - widths.reduce((sum, entry) => sum + entry, 0);
  const row = (cells: string[], font: 'regular' | 'bold') => {
    pdf.font(font).fontSize(9);
    const heights = cells.map((cell, index) => pdf.heightOfString(cell, { width: widths[index]! - 4 }));
    const height = Math.max(...heights) + 6;
    if (pdf.y + height > pdf.page.height - pdf.page.margins.bottom) pdf.addPage();
    const y = pdf.y;
    let x = left;
    cells.forEach((cell, index) => {
      pdf.text(cell, x + 2, y + 3, { width: widths[index]! - 4, align: index <= 1 ? 'left' : 'right' });
      x += widths[index]!;
    });
    pdf.moveTo(left, y + height).lineTo(left + width, y + height).lineWidth(0.5).stroke('#999999');
    pdf.x = left;
    pdf.y = y + height;
  };
  row([...(vatShown ? texts.columns : texts.columnsWithoutVat)], 'bold');
  document.lines.forEach((line, index) => {
    const description = language === 'bg' ? line.description.bg : line.description.en;
    const quantity = String(line.quantity);
    row(
      vatShown
        ? [String(index + 1), description, quantity, unitPrice(line.unitNetMinor, language), taxPercentText(line.vatRateBasisPoints), formatMinor(line.vatMinor, language), formatMinor(line.valueMinor, language)]
        : [String(index + 1), description, quantity, unitPrice(line.unitNetMinor, language), formatMinor(line.valueMinor, language)],
      'regular',
    );
  });
  pdf.moveDown();

  const totals: [string, string][] = [
    ...(document.discount ? ([[texts.discount.replace('{code}', document.discount.code), money(document.discount.amountMinor, currency, language)]] as [string, string][]) : []),
    ...(vatShown ? ([[texts.net, money(document.netMinor, currency, language)], [texts.vat, money(document.vatMinor, currency, language)]] as [string, string][]) : []),
    [document.totalMinor < 0 ? texts.totalCredited : texts.total, money(document.totalMinor, currency, language)],
    ...(document.totalBgnMinor === undefined ? [] : ([[texts.totalInBgn, money(document.totalBgnMinor, 'BGN', language)]] as [string, string][])),
    // A gift card is a payment of the invoice, not of its credit note (one issued before that was so carries it).
    ...(document.kind === 'credit_note' ? [] : giftCardRows(document, texts, language)),
  ];
  pdf.fontSize(10);
  for (const [label, amount] of totals) {
    const y = pdf.y;
    pdf.font('regular').text(label, left, y, { width: width - 130, align: 'right' });
    const labelBottom = pdf.y;
    pdf.font('bold').text(amount, left + width - 120, y, { width: 120, align: 'right' });
    pdf.x = left;
    pdf.y = Math.max(labelBottom, pdf.y);
  }
  const words = language === 'bg' ? bulgarianAmountInWords(Math.abs(document.totalMinor), currency) : englishAmountInWords(Math.abs(document.totalMinor), currency);
  pdf.moveDown().font('regular').text(`${texts.inWords}: ${words}`, left, pdf.y, { width });
  if (!vatShown) pdf.moveDown(0.5).text(texts.noVat, { width });
  // How the invoice was paid: a credit note's money goes back as its refund says, which it does not state.
  if (document.kind !== 'credit_note') {
    pdf.moveDown();
    pdf.text(`${texts.payment}: ${[document.giftCard && document.payment.method !== 'gift_card' ? texts.methods.gift_card : null, texts.methods[document.payment.method]].filter(Boolean).join(', ')}`);
    pdf.text(`${texts.paidAt}: ${dateText(document.payment.paidAt, language)}`);
    pdf.text(`${texts.transaction}: ${document.payment.reference}`);
  }
  if (document.kind === 'sale_document') drawQrCode(pdf, saleQrText(document));
  pdf.end();
  return done;
}

/** A gift card's part of the total, and the rest paid by the order's method: payments, under the total they pay. */
function giftCardRows(document: TaxDocumentContent, texts: (typeof TEXTS)[Language], language: Language): [string, string][] {
  const card = document.giftCard;
  if (!card) return [];
  const rows: [string, string][] = [[texts.giftCard.replace('{ending}', card.ending), money(card.amountMinor, document.currency, language)]];
  const rest = document.totalMinor - card.amountMinor;
  if (rest > 0) rows.push([texts.rest.replace('{method}', texts.methods[document.payment.method]), money(rest, document.currency, language)]);
  return rows;
}
