import { extractText, getDocumentProxy } from 'unpdf';
import type { InvoiceBuyer } from '#shared/invoice-buyer.js';

/** The text of a PDF's pages, as a reader copies it, with runs of white space as one space. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

/** A company buyer whose ЕИК and VAT number pass their checks. */
export const company: InvoiceBuyer = { kind: 'company', name: 'Салон Красота ООД', uic: '123456786', vatNumber: 'BG123456786', responsiblePerson: 'Мария Иванова', address: 'ул. Шипка 7, 1504 София' };

/** A seller registered for VAT and in НАП's register of e-shops, under the alternative regime. */
export const SELLER = {
  SHOP_LEGAL_NAME: 'Ателие Нокти ЕООД',
  SHOP_UIC: '204567893',
  SHOP_VAT_NUMBER: 'BG204567893',
  SHOP_ADDRESS: 'ул. Граф Игнатиев 1, 1000 София',
  SHOP_NAP_NUMBER: 'RF0001234',
  NRA_ALTERNATIVE_REGIME: 'true',
  PAYMENT_METHODS: 'card,cash_on_delivery,pay_by_link',
};
