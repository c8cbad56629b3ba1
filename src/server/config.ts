import { isIP } from 'node:net';
import { z } from 'zod';
import { CURRENCIES, MAX_PRICE_MINOR, parsePriceToMinor, SPEC_PRICING, type PricingRules } from '#shared/money.js';
import { COURIERS, DELIVERY_METHODS, deliveryMethodsFor, type Courier, type DeliveryMethod } from '#shared/delivery.js';
import { PAYMENT_METHODS, type PaymentMethod } from '#shared/orders.js';
import { ONLINE_PAYMENT_METHODS, PAYMENT_PROVIDERS, type BankAccount, type PaymentProviderName } from '#shared/payment-methods.js';
import { isValidIban } from '#shared/withdrawals.js';
import { SHOP_MODES, type ShopMode } from '#shared/settings.js';
import { isValidBulgarianVatNumber, isValidUic, normalizeVatNumber } from '#shared/tax-ids.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const emailList = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

/** An amount in the shop's currency as a person writes it ("5.99"), in minor units. */
const amount = (name: string) =>
  z
    .string()
    .transform((value, context) => {
      const minor = parsePriceToMinor(value);
      if (minor === undefined || (minor === 0 && !/^\s*0+([.,]0*)?\s*$/.test(value)) || minor > MAX_PRICE_MINOR) {
        context.addIssue({ code: 'custom', message: `${name} must be an amount such as 5.99` });
        return z.NEVER;
      }
      return minor;
    });

/** A tax rate as a fraction ("0.05", "0.2"), in basis points. */
const taxRate = z
  .string()
  .regex(/^(0(\.\d{1,4})?|1(\.0{1,4})?)$/, 'TAX_RATE must be a fraction between 0 and 1 with at most 4 decimals, such as 0.2')
  .transform((value) => Math.round(Number(value) * 10_000));

/**
 * What a shop offers when PAYMENT_METHODS is not set: a demo the simulated provider's methods; a live
 * shop cash on delivery, a card through its real provider, and a bank transfer to its account.
 */
function defaultPaymentMethods(mode: ShopMode, provider: PaymentProviderName, bankAccount: boolean): PaymentMethod[] {
  if (mode === 'demo') return provider === 'simulated' ? ['pay_by_link', 'card'] : ['card'];
  return [...(provider === 'simulated' ? [] : (['card'] as const)), 'cash_on_delivery', ...(bankAccount ? (['bank_transfer'] as const) : [])];
}

const paymentMethodList = z
  .string()
  .transform((value) => [...new Set(value.split(',').map((method) => method.trim()).filter(Boolean))])
  .pipe(z.array(z.enum(PAYMENT_METHODS)).min(1, 'PAYMENT_METHODS must name at least one method'));

const courierList = z
  .string()
  .transform((value) => [...new Set(value.split(',').map((courier) => courier.trim().toLowerCase()).filter(Boolean))])
  .pipe(z.array(z.enum(COURIERS, { error: `COURIERS must name couriers among ${COURIERS.join(', ')}` })));

/**
 * "econt_office=4.50, speedy_address=courier": the delivery methods that cost other than SHIPPING_FEE,
 * at a fixed fee or at the price their courier quotes for each order.
 */
const deliveryFees = z.string().transform((value, context) => {
  const fees: Partial<Record<DeliveryMethod, number>> = {};
  const quoted: DeliveryMethod[] = [];
  for (const entry of value.split(',').map((part) => part.trim()).filter(Boolean)) {
    const [method = '', fee = ''] = entry.split('=').map((part) => part.trim());
    const known = (DELIVERY_METHODS as readonly string[]).includes(method);
    if (known && method !== 'address' && fee.toLowerCase() === 'courier') {
      quoted.push(method as DeliveryMethod);
      continue;
    }
    const minor = parsePriceToMinor(fee);
    // parsePriceToMinor reads anything that is not a number as 0: only a written zero is one here.
    if (!known || minor === undefined || (minor === 0 && !/^0+([.,]0*)?$/.test(fee)) || minor > MAX_PRICE_MINOR) {
      context.addIssue({
        code: 'custom',
        message: `DELIVERY_FEES must list methods with an amount or "courier", such as econt_office=4.50,speedy_address=courier (methods: ${DELIVERY_METHODS.join(', ')}); "${entry}" is not one`,
      });
      return z.NEVER;
    }
    fees[method as DeliveryMethod] = minor;
  }
  return { fees, quoted };
});

/**
 * Which proxies in front of the shop are trusted to name the client in X-Forwarded-For: none (false),
 * the nearest N hops, or the proxies at these addresses. A proxy appends the address it was reached
 * from to whatever the client sent, so only the entries that trusted proxies added may be believed.
 */
export type TrustedProxies = false | { hops: number } | { addresses: string[] };

const TRUST_PROXY_VALUES = 'false, the number of proxies in front of the shop (such as 1), or their addresses, comma-separated (such as 10.0.0.5,10.1.0.0/16)';

/** An address or a CIDR range, IPv4 or IPv6, or one of proxy-addr's names for the local ranges. */
function isProxyAddress(value: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(value)) return true;
  const [address = '', prefix, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128));
}

const trustedProxies = z.string().transform((value, context): TrustedProxies => {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return false;
  // "true" once trusted the whole chain, which let any client choose its own address by sending the
  // header itself; it now means the one proxy that most shops have in front of them.
  if (['true', 'yes'].includes(text)) return { hops: 1 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops <= 10) return { hops };
  } else {
    const addresses = text.split(',').map((entry) => entry.trim());
    if (addresses.every(isProxyAddress)) return { addresses };
  }
  context.addIssue({ code: 'custom', message: `TRUST_PROXY must be ${TRUST_PROXY_VALUES}; "${value}" is none of these` });
  return z.NEVER;
});

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  MAIL_FROM: z.string().min(3).default('Nail Art Atelier <shop@nail-art.example>'),
  SUPPORT_EMAIL: z.email().default('support@nail-art.example'),
  ADMIN_EMAILS: emailList.default([]),
  ORDER_NOTIFY_EMAILS: emailList.default([]),
  ORDER_NOTIFY_LANGUAGE: z.enum(['en', 'bg']).optional(),
  STATUS_MAIL_DELAY_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  MAIL_CLAIM_SECONDS: z.coerce.number().int().min(1).max(3_600).default(300),
  // Days after delivery; "off" sends no review request. Fractions serve tests.
  REVIEW_REQUEST_DAYS: z.union([z.literal('off'), z.coerce.number().min(0).max(365)]).default(7),
  SHOP_CURRENCY: z.enum(CURRENCIES).default('BGN'),
  SHOW_BGN_EQUIVALENT: booleanFlag.default(false),
  TAX_RATE: taxRate.default(SPEC_PRICING.taxRateBasisPoints),
  SHIPPING_FEE: amount('SHIPPING_FEE').default(SPEC_PRICING.shippingMinor),
  PRICES_INCLUDE_TAX: booleanFlag.default(false),
  COD_FEE: amount('COD_FEE').default(0),
  FREE_SHIPPING_FROM: amount('FREE_SHIPPING_FROM').optional(),
  SHOP_MODE: z.enum(SHOP_MODES).default('demo'),
  PAYMENT_METHODS: paymentMethodList.optional(),
  KEEP_SIMULATED_PAYMENTS: booleanFlag.default(false),
  PAYMENT_PROVIDER: z.enum(PAYMENT_PROVIDERS).default('simulated'),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'STRIPE_SECRET_KEY must be a Stripe secret or restricted key (sk_live_…, sk_test_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, "STRIPE_WEBHOOK_SECRET must be the webhook endpoint's signing secret (whsec_…)").optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.stripe.com'),
  EPAY_MIN: z.string().regex(/^[A-Za-z0-9]{4,20}$/, "EPAY_MIN must be the merchant's ePay.bg customer number (КИН), such as D123456789").optional(),
  EPAY_SECRET: z.string().regex(/^[\x21-\x7e]{16,128}$/, "EPAY_SECRET must be the merchant's ePay.bg secret word: 16 to 128 printable characters").optional(),
  EPAY_URL: z.url({ protocol: /^https?$/ }).default('https://www.epay.bg/'),
  COURIERS: courierList.default([]),
  DELIVERY_FEES: deliveryFees.default({ fees: {}, quoted: [] }),
  INSPECT_BEFORE_PAYING: booleanFlag.default(false),
  ECONT_URL: z.url({ protocol: /^https?$/ }).default('https://ee.econt.com/services/'),
  ECONT_USERNAME: z.string().min(1).optional(),
  ECONT_PASSWORD: z.string().min(1).optional(),
  ECONT_CD_AGREEMENT: z.string().regex(/^[A-Za-z0-9]{1,20}$/, "ECONT_CD_AGREEMENT must be the number of the Econt profile's cash-on-delivery agreement, such as CD123456").optional(),
  ECONT_SENDER_OFFICE: z.string().regex(/^\d{1,10}$/, "ECONT_SENDER_OFFICE must be the code of the Econt office the shop hands parcels in at, such as 1127").optional(),
  SPEEDY_URL: z.url({ protocol: /^https?$/ }).default('https://api.speedy.bg/v1/'),
  SPEEDY_USERNAME: z.string().min(1).optional(),
  SPEEDY_PASSWORD: z.string().min(1).optional(),
  SPEEDY_SENDER_OFFICE: z.string().regex(/^\d{1,10}$/, 'SPEEDY_SENDER_OFFICE must be the id of the Speedy office the shop hands parcels in at, such as 77').optional(),
  BANK_IBAN: z
    .string()
    .transform((value) => value.replace(/\s+/g, '').toUpperCase())
    .refine(isValidIban, 'BANK_IBAN must be an IBAN whose check digits are right, such as BG80BNBG96611020345678')
    .optional(),
  BANK_BIC: z
    .string()
    .transform((value) => value.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z]{6}[A-Z0-9]{2}([A-Z0-9]{3})?$/, 'BANK_BIC must be a BIC of 8 or 11 characters, such as BNBGBGSF'))
    .optional(),
  BANK_ACCOUNT_NAME: z.string().trim().min(1).max(140).optional(),
  CUSTOMER_CANCELLATION: booleanFlag.default(true),
  SHOP_LEGAL_NAME: z.string().trim().min(1).max(200).default('Nail Art Atelier Ltd.'),
  SHOP_UIC: z
    .string()
    .trim()
    .refine(isValidUic, 'SHOP_UIC must be the seller\'s ЕИК: 9 or 13 digits whose check digit is right')
    .default('000000000'),
  SHOP_VAT_NUMBER: z
    .string()
    .transform(normalizeVatNumber)
    .refine((value) => value === '' || isValidBulgarianVatNumber(value), 'SHOP_VAT_NUMBER must be a Bulgarian VAT number (BG and the ЕИК) whose check digit is right, or empty for a seller not registered for VAT')
    .default(''),
  SHOP_ADDRESS: z.string().trim().min(1).max(300).default('1 Example Street, 1000 Sofia, Bulgaria'),
  SHOP_PHONE: z.string().trim().min(1).max(40).default('+359 2 000 0000'),
  // The e-shop's number in the revenue agency's register of online shops (Наредба Н-18, чл. 52м).
  SHOP_NAP_NUMBER: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{1,10}$/, 'SHOP_NAP_NUMBER must be the shop\'s number in the НАП register: at most 10 letters and digits, such as RF0001234')
    .optional(),
  NRA_ALTERNATIVE_REGIME: booleanFlag.default(false),
  INVOICE_START_NUMBER: z.coerce
    .number()
    .int('INVOICE_START_NUMBER must be a whole number')
    .min(1, 'INVOICE_START_NUMBER must be at least 1')
    .max(9_999_999_999, 'INVOICE_START_NUMBER must have at most 10 digits')
    .default(1),
  SEED_DEMO: booleanFlag.optional(),
  TRUST_PROXY: trustedProxies.default(false),
  // It travels in a header and guards data about the shop's trade, so it must be hard to guess.
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'METRICS_TOKEN must be printable ASCII without spaces')
    .min(24, 'METRICS_TOKEN must be at least 24 characters long')
    .optional(),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3_600).default(300),
  // Off unless set: one process has no other to send its visitors to (docs/operations/health-and-shutdown.md).
  MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** The shop's address without a trailing slash. */
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  supportEmail: string;
  adminEmails: string[];
  /** Who hears of new orders; the admins when empty. */
  orderNotifyEmails: string[];
  /** The language of those notices for everyone; unset, each admin gets the language they last used the admin in. */
  orderNotifyLanguage: 'en' | 'bg' | undefined;
  /** How long a status e-mail waits before it is sent, so that a status changed again replaces it. */
  statusMailDelaySeconds: number;
  /** How long after delivery a buyer is asked to review what she bought; null: never. */
  reviewRequestDelayMs: number | null;
  /** How long a server process may take to send one e-mail before another process takes it over. */
  mailClaimSeconds: number;
  /** How orders are priced: the currency, tax, shipping and cash-on-delivery fee. */
  pricing: PricingRules;
  /** In a euro shop, show each price's BGN equivalent beside it (the changeover rule). */
  showBgnEquivalent: boolean;
  /** A demo shows the demo banner and catalogue and takes simulated payments; a live shop is a real one. */
  shopMode: ShopMode;
  /** The payment methods customers may choose, in the order offered. */
  paymentMethods: PaymentMethod[];
  /** Simulated methods PAYMENT_METHODS named that a live shop leaves out (the start logs them). */
  droppedPaymentMethods: PaymentMethod[];
  /** Who settles the online methods, with its settings. */
  paymentProvider: PaymentProviderSettings;
  /** The shop's bank account, which bank transfers go to; null when the shop takes none. */
  bankAccount: BankAccount | null;
  /** The couriers the shop sends with, with their credentials (which never leave the server); empty: the shop delivers itself. */
  couriers: CourierSettings[];
  /** The delivery methods customers may choose, in the order offered. */
  deliveryMethods: DeliveryMethod[];
  /** Couriers let the buyer open the parcel before paying for it. */
  inspectBeforePaying: boolean;
  /** The seller as the legal pages and tax documents name it; an empty VAT number is a seller not registered for VAT. */
  seller: { legalName: string; uic: string; vatNumber: string; address: string; phone: string; email: string };
  /** How the shop's sales are documented for the revenue agency (Наредба Н-18). */
  taxDocuments: {
    /** The e-shop's number in the НАП register, printed on sale documents and in the audit file. */
    napShopNumber: string | undefined;
    /** Online payments are documented by the shop's own sale documents instead of fiscal receipts. */
    alternativeRegime: boolean;
    /** The number the first invoice gets; later ones follow it without gaps. */
    invoiceStartNumber: number;
  };
  seedDemo: boolean;
  /** Buyers may cancel their own orders online while Pending, Accepted or Paid (not yet Preparing). */
  customerCancellation: boolean;
  /** Behind reverse proxies, client addresses come from the X-Forwarded-For entries these proxies added. */
  trustProxy: TrustedProxies;
  /** Opens /metrics to requests that bring it as a bearer token; without it, /metrics answers only this host. */
  metricsToken: string | undefined;
  /** How long a client may take to send a whole request (headers and body: a photo upload on a slow line). */
  requestTimeoutMs: number;
  /** Past this event-loop delay the process sheds load: /ready and new requests answer 503. 0 turns it off. */
  maxEventLoopDelayMs: number;
  logLevel: string;
}

/** The provider that settles online payments, with its credentials (which never leave the server). */
export type PaymentProviderSettings =
  | { name: 'simulated' }
  | { name: 'stripe'; secretKey: string; webhookSecret: string; apiUrl: string }
  | { name: 'epay'; merchantId: string; secret: string; url: string };

/** A courier's API: its base address (a setting, so that tests point it at a local server), the shop's account, and the office it hands parcels in at (else the courier collects them from the account's address). */
export interface CourierSettings {
  name: Courier;
  url: string;
  username: string;
  password: string;
  senderOffice: string | undefined;
  /** How long the courier may take to answer (COURIER_TIMEOUT_MS unless a test shortens it). */
  timeoutMs?: number;
  /** Econt: the profile's cash-on-delivery agreement (its CD number) that says how the collected cash reaches the shop. */
  cashOnDeliveryAgreement?: string;
}

export class ConfigError extends Error {}

type Environment = z.infer<typeof environmentSchema>;

const missing = (variable: string, reason: string) => new ConfigError(`Invalid environment configuration:\n  ${variable}: ${reason}`);

/** The payment provider PAYMENT_PROVIDER names, with the settings it cannot work without. */
function paymentProviderOf(env: Environment): PaymentProviderSettings {
  switch (env.PAYMENT_PROVIDER) {
    case 'simulated':
      return { name: 'simulated' };
    case 'stripe':
      if (!env.STRIPE_SECRET_KEY) throw missing('STRIPE_SECRET_KEY', 'PAYMENT_PROVIDER=stripe needs the secret key of the Stripe account');
      if (!env.STRIPE_WEBHOOK_SECRET) throw missing('STRIPE_WEBHOOK_SECRET', 'PAYMENT_PROVIDER=stripe needs the signing secret of the webhook endpoint /api/payments/stripe/webhook');
      // Stripe settles euro, not leva: a leva shop would have every card payment refused.
      if (env.SHOP_CURRENCY !== 'EUR') throw missing('SHOP_CURRENCY', 'PAYMENT_PROVIDER=stripe takes euro only: set SHOP_CURRENCY=EUR');
      return { name: 'stripe', secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL.replace(/\/+$/, '') };
    case 'epay':
      if (!env.EPAY_MIN) throw missing('EPAY_MIN', "PAYMENT_PROVIDER=epay needs the merchant's ePay.bg customer number (КИН)");
      if (!env.EPAY_SECRET) throw missing('EPAY_SECRET', "PAYMENT_PROVIDER=epay needs the merchant's ePay.bg secret word");
      return { name: 'epay', merchantId: env.EPAY_MIN, secret: env.EPAY_SECRET, url: env.EPAY_URL.endsWith('/') ? env.EPAY_URL : `${env.EPAY_URL}/` };
  }
}

function couriersOf(env: Environment): CourierSettings[] {
  return env.COURIERS.map((name) => {
    const prefix = name.toUpperCase() as 'ECONT' | 'SPEEDY';
    const username = env[`${prefix}_USERNAME`];
    const password = env[`${prefix}_PASSWORD`];
    if (!username || !password) throw missing(`${prefix}_USERNAME`, `COURIERS names ${name}, so ${prefix}_USERNAME and ${prefix}_PASSWORD must be the shop's account with it`);
    const url = env[`${prefix}_URL`];
    const settings = { name, url: url.endsWith('/') ? url : `${url}/`, username, password, senderOffice: env[`${prefix}_SENDER_OFFICE`] };
    return name === 'econt' ? { ...settings, cashOnDeliveryAgreement: env.ECONT_CD_AGREEMENT } : settings;
  });
}

function bankAccountOf(env: Environment): BankAccount | null {
  if (!env.BANK_IBAN) return null;
  if (!env.BANK_ACCOUNT_NAME) throw missing('BANK_ACCOUNT_NAME', 'BANK_IBAN is set, so the name the account is held in must be too');
  return { iban: env.BANK_IBAN, bic: env.BANK_BIC ?? null, accountName: env.BANK_ACCOUNT_NAME };
}

/** Reads the configuration once at start; a bad value stops the server with a message naming the variable. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = environmentSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`).join('\n');
    throw new ConfigError(`Invalid environment configuration:\n${problems}`);
  }
  const env = parsed.data;
  const mode = env.SHOP_MODE;
  const paymentProvider = paymentProviderOf(env);
  const bankAccount = bankAccountOf(env);
  const listed = env.PAYMENT_METHODS ?? defaultPaymentMethods(mode, paymentProvider.name, bankAccount !== null);
  if (listed.includes('bank_transfer') && !bankAccount) {
    throw new ConfigError('Invalid environment configuration:\n  BANK_IBAN: bank_transfer is offered, so BANK_IBAN and BANK_ACCOUNT_NAME must name the account it goes to');
  }
  const keepsSimulated = mode === 'demo' || env.KEEP_SIMULATED_PAYMENTS || paymentProvider.name !== 'simulated';
  const paymentMethods = keepsSimulated ? listed : listed.filter((method) => !ONLINE_PAYMENT_METHODS.includes(method));
  if (paymentMethods.length === 0) {
    throw new ConfigError(
      `Invalid environment configuration:\n  PAYMENT_METHODS: a live shop (SHOP_MODE=live) offers no simulated payment, and ${listed.join(', ')} ` +
        `${listed.length === 1 ? 'is' : 'are'} simulated (no money is taken), so no payment method is left. ` +
        'Offer cash_on_delivery, or set KEEP_SIMULATED_PAYMENTS=true to take simulated payments anyway.',
    );
  }
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    dataDir: env.DATA_DIR,
    databaseUrl: env.DATABASE_URL,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    supportEmail: env.SUPPORT_EMAIL,
    adminEmails: env.ADMIN_EMAILS,
    orderNotifyEmails: env.ORDER_NOTIFY_EMAILS,
    orderNotifyLanguage: env.ORDER_NOTIFY_LANGUAGE,
    statusMailDelaySeconds: env.STATUS_MAIL_DELAY_SECONDS,
    mailClaimSeconds: env.MAIL_CLAIM_SECONDS,
    reviewRequestDelayMs: env.REVIEW_REQUEST_DAYS === 'off' ? null : Math.round(env.REVIEW_REQUEST_DAYS * 86_400_000),
    pricing: {
      currency: env.SHOP_CURRENCY,
      taxRateBasisPoints: env.TAX_RATE,
      shippingMinor: env.SHIPPING_FEE,
      pricesIncludeTax: env.PRICES_INCLUDE_TAX,
      cashOnDeliveryFeeMinor: env.COD_FEE,
      freeShippingFromMinor: env.FREE_SHIPPING_FROM ?? null,
      // Only a shop whose methods cost differently has the field: the specification's pricing has none.
      ...(Object.keys(env.DELIVERY_FEES.fees).length > 0 ? { deliveryFeesMinor: env.DELIVERY_FEES.fees } : {}),
      ...(env.DELIVERY_FEES.quoted.length > 0 ? { quotedDeliveryMethods: env.DELIVERY_FEES.quoted } : {}),
    },
    showBgnEquivalent: env.SHOW_BGN_EQUIVALENT && env.SHOP_CURRENCY === 'EUR',
    shopMode: mode,
    paymentMethods,
    droppedPaymentMethods: listed.filter((method) => !paymentMethods.includes(method)),
    paymentProvider,
    bankAccount,
    couriers: couriersOf(env),
    deliveryMethods: deliveryMethodsFor(env.COURIERS),
    inspectBeforePaying: env.INSPECT_BEFORE_PAYING,
    seller: { legalName: env.SHOP_LEGAL_NAME, uic: env.SHOP_UIC, vatNumber: env.SHOP_VAT_NUMBER, address: env.SHOP_ADDRESS, phone: env.SHOP_PHONE, email: env.SUPPORT_EMAIL },
    taxDocuments: { napShopNumber: env.SHOP_NAP_NUMBER, alternativeRegime: env.NRA_ALTERNATIVE_REGIME, invoiceStartNumber: env.INVOICE_START_NUMBER },
    seedDemo: env.SEED_DEMO ?? mode === 'demo',
    customerCancellation: env.CUSTOMER_CANCELLATION,
    trustProxy: env.TRUST_PROXY,
    metricsToken: env.METRICS_TOKEN,
    requestTimeoutMs: env.REQUEST_TIMEOUT_SECONDS * 1000,
    maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS,
    logLevel: env.LOG_LEVEL,
  };
}
