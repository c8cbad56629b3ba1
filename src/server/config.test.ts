import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('has working defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:3000',
      dataDir: './data',
      databaseUrl: undefined,
      smtpUrl: undefined,
      adminEmails: [],
      seedDemo: true,
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      PUBLIC_URL: 'https://shop.example.com/',
      ADMIN_EMAILS: ' Owner@Example.com, helper@example.com ',
      SEED_DEMO: 'false',
      DATABASE_URL: 'postgres://shop@db.example/shop',
      SMTP_URL: 'smtp://user:pass@mail.example:587',
    });
    expect(config.port).toBe(8080);
    expect(config.publicUrl).toBe('https://shop.example.com');
    expect(config.adminEmails).toEqual(['owner@example.com', 'helper@example.com']);
    expect(config.seedDemo).toBe(false);
    expect(config.databaseUrl).toBe('postgres://shop@db.example/shop');
    expect(config.smtpUrl).toBe('smtp://user:pass@mail.example:587');
  });

  it('prices as the specification by default, and as a Bulgarian euro shop when told', () => {
    expect(loadConfig({}).pricing).toEqual({ currency: 'BGN', taxRateBasisPoints: 500, shippingMinor: 599, pricesIncludeTax: false, cashOnDeliveryFeeMinor: 0, freeShippingFromMinor: null });
    expect(loadConfig({}).paymentMethods).toEqual(['pay_by_link', 'card']);
    const euro = loadConfig({
      SHOP_CURRENCY: 'EUR',
      SHOW_BGN_EQUIVALENT: 'true',
      TAX_RATE: '0.2',
      SHIPPING_FEE: '3,06',
      PRICES_INCLUDE_TAX: 'true',
      COD_FEE: '1.5',
      FREE_SHIPPING_FROM: '50',
      PAYMENT_METHODS: 'cash_on_delivery, card, cash_on_delivery',
    });
    expect(euro.pricing).toEqual({ currency: 'EUR', taxRateBasisPoints: 2000, shippingMinor: 306, pricesIncludeTax: true, cashOnDeliveryFeeMinor: 150, freeShippingFromMinor: 5000 });
    expect(() => loadConfig({ FREE_SHIPPING_FROM: 'fifty' })).toThrow('FREE_SHIPPING_FROM must be an amount such as 5.99');
    expect(euro.showBgnEquivalent).toBe(true);
    expect(euro.paymentMethods).toEqual(['cash_on_delivery', 'card']);
    expect(loadConfig({ TAX_RATE: '0.095', SHIPPING_FEE: '0' }).pricing).toMatchObject({ taxRateBasisPoints: 950, shippingMinor: 0 });
    // The BGN equivalent belongs to euro prices only.
    expect(loadConfig({ SHOW_BGN_EQUIVALENT: 'true' }).showBgnEquivalent).toBe(false);
  });

  it.each([
    ['SHOP_CURRENCY', 'USD'],
    ['TAX_RATE', '20%'],
    ['TAX_RATE', '1.5'],
    ['TAX_RATE', '0.12345'],
    ['SHIPPING_FEE', '5.999'],
    ['SHIPPING_FEE', '-1'],
    ['SHIPPING_FEE', 'free'],
    ['COD_FEE', '100000.01'],
    ['PAYMENT_METHODS', 'cash'],
    ['PAYMENT_METHODS', ' , '],
    ['METRICS_TOKEN', 'short-token'],
    ['METRICS_TOKEN', 'a token of many words that are long enough'],
  ])('refuses %s=%s with a message naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it('is a demo unless SHOP_MODE=live: the demo catalogue, the banner and simulated payments', () => {
    expect(loadConfig({})).toMatchObject({ shopMode: 'demo', seedDemo: true, paymentMethods: ['pay_by_link', 'card'], droppedPaymentMethods: [] });
    expect(loadConfig({ SHOP_MODE: 'demo', PAYMENT_METHODS: 'card' })).toMatchObject({ shopMode: 'demo', paymentMethods: ['card'] });
  });

  it('starts a live shop with no demo catalogue and cash on delivery, the one method that takes real money', () => {
    expect(loadConfig({ SHOP_MODE: 'live' })).toMatchObject({ shopMode: 'live', seedDemo: false, paymentMethods: ['cash_on_delivery'], droppedPaymentMethods: [] });
    // SEED_DEMO still decides when given.
    expect(loadConfig({ SHOP_MODE: 'live', SEED_DEMO: 'true' }).seedDemo).toBe(true);
    expect(loadConfig({ SHOP_MODE: 'demo', SEED_DEMO: 'false' }).seedDemo).toBe(false);
  });

  it('leaves the simulated methods out of a live shop unless the owner keeps them explicitly', () => {
    expect(loadConfig({ SHOP_MODE: 'live', PAYMENT_METHODS: 'card,cash_on_delivery,pay_by_link' })).toMatchObject({
      paymentMethods: ['cash_on_delivery'],
      droppedPaymentMethods: ['card', 'pay_by_link'],
    });
    expect(loadConfig({ SHOP_MODE: 'live', PAYMENT_METHODS: 'card,cash_on_delivery', KEEP_SIMULATED_PAYMENTS: 'true' })).toMatchObject({
      paymentMethods: ['card', 'cash_on_delivery'],
      droppedPaymentMethods: [],
    });
  });

  it('refuses to start a live shop that would offer no payment method, saying what to do', () => {
    const start = () => loadConfig({ SHOP_MODE: 'live', PAYMENT_METHODS: 'pay_by_link,card' });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/PAYMENT_METHODS: a live shop \(SHOP_MODE=live\) offers no simulated payment, and pay_by_link, card are simulated/);
    expect(start).toThrow(/Offer cash_on_delivery, or set KEEP_SIMULATED_PAYMENTS=true/);
    expect(() => loadConfig({ SHOP_MODE: 'live', PAYMENT_METHODS: 'card', KEEP_SIMULATED_PAYMENTS: 'yes' })).not.toThrow();
  });

  it('takes payments through the simulated provider unless PAYMENT_PROVIDER names a real one with its settings', () => {
    expect(loadConfig({}).paymentProvider).toEqual({ name: 'simulated' });
    const stripe = { PAYMENT_PROVIDER: 'stripe', SHOP_CURRENCY: 'EUR', STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    expect(loadConfig(stripe).paymentProvider).toEqual({ name: 'stripe', secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123', apiUrl: 'https://api.stripe.com' });
    expect(() => loadConfig({ ...stripe, STRIPE_WEBHOOK_SECRET: '' })).toThrow(/STRIPE_WEBHOOK_SECRET: PAYMENT_PROVIDER=stripe needs/);
    expect(() => loadConfig({ ...stripe, SHOP_CURRENCY: 'BGN' })).toThrow(/SHOP_CURRENCY: PAYMENT_PROVIDER=stripe takes euro only/);
    const epay = { PAYMENT_PROVIDER: 'epay', EPAY_MIN: 'D123456789', EPAY_SECRET: 'A'.repeat(64) };
    expect(loadConfig(epay).paymentProvider).toEqual({ name: 'epay', merchantId: 'D123456789', secret: 'A'.repeat(64), url: 'https://www.epay.bg/' });
    expect(() => loadConfig({ ...epay, EPAY_MIN: '' })).toThrow(/EPAY_MIN/);
    // A live shop with a real provider takes cards for real, and cash on delivery.
    expect(loadConfig({ ...epay, SHOP_MODE: 'live' }).paymentMethods).toEqual(['card', 'cash_on_delivery']);
  });

  it('offers bank transfers to the account BANK_IBAN names, and refuses to offer them without one', () => {
    const bank = { BANK_IBAN: 'bg80 bnbg 9661 1020 3456 78', BANK_BIC: 'bnbgbgsf', BANK_ACCOUNT_NAME: 'Nail Art Atelier Ltd.' };
    expect(loadConfig(bank).bankAccount).toEqual({ iban: 'BG80BNBG96611020345678', bic: 'BNBGBGSF', accountName: 'Nail Art Atelier Ltd.' });
    expect(loadConfig({ ...bank, SHOP_MODE: 'live' }).paymentMethods).toEqual(['cash_on_delivery', 'bank_transfer']);
    expect(loadConfig({}).bankAccount).toBeNull();
    expect(() => loadConfig({ PAYMENT_METHODS: 'card,bank_transfer' })).toThrow(/BANK_IBAN: bank_transfer is offered/);
    expect(() => loadConfig({ BANK_IBAN: bank.BANK_IBAN })).toThrow(/BANK_ACCOUNT_NAME/);
  });

  it('delivers by the shop itself unless COURIERS names couriers, each with its account, and prices methods by DELIVERY_FEES', () => {
    expect(loadConfig({})).toMatchObject({ couriers: [], deliveryMethods: ['address'], inspectBeforePaying: false });
    const econt = { ECONT_USERNAME: 'shop', ECONT_PASSWORD: 'secret' };
    const both = loadConfig({ COURIERS: 'Econt, speedy', ...econt, SPEEDY_USERNAME: '999', SPEEDY_PASSWORD: 'pass', SPEEDY_URL: 'http://127.0.0.1:9/v1', ECONT_CD_AGREEMENT: 'CD123456', DELIVERY_FEES: 'econt_office=4.50, speedy_locker=3.90' });
    expect(both.couriers).toEqual([
      { name: 'econt', url: 'https://ee.econt.com/services/', username: 'shop', password: 'secret', senderOffice: undefined, cashOnDeliveryAgreement: 'CD123456' },
      { name: 'speedy', url: 'http://127.0.0.1:9/v1/', username: '999', password: 'pass', senderOffice: undefined },
    ]);
    expect(both.deliveryMethods).toEqual(['econt_office', 'econt_locker', 'econt_address', 'speedy_office', 'speedy_locker', 'speedy_address']);
    expect(both.pricing.deliveryFeesMinor).toEqual({ econt_office: 450, speedy_locker: 390 });
    expect(both.pricing.quotedDeliveryMethods).toBeUndefined();
    const quoted = loadConfig({ COURIERS: 'econt', ...econt, DELIVERY_FEES: 'econt_address=courier, econt_office=3.20' });
    expect([quoted.pricing.deliveryFeesMinor, quoted.pricing.quotedDeliveryMethods]).toEqual([{ econt_office: 320 }, ['econt_address']]);
    expect(() => loadConfig({ ...econt, COURIERS: 'econt', DELIVERY_FEES: 'address=courier' })).toThrow(/DELIVERY_FEES must list methods with an amount or "courier"/);
    expect(() => loadConfig({ ...econt, COURIERS: 'econt', DELIVERY_FEES: 'econt_office=cheap' })).toThrow(/"econt_office=cheap" is not one/);
    expect(loadConfig({ ...econt, COURIERS: 'econt', DELIVERY_FEES: 'econt_office=0' }).pricing.deliveryFeesMinor).toEqual({ econt_office: 0 });
    expect(() => loadConfig({ COURIERS: 'econt' })).toThrow(/ECONT_USERNAME: COURIERS names econt, so ECONT_USERNAME and ECONT_PASSWORD/);
    expect(() => loadConfig({ COURIERS: 'dhl' })).toThrow(/COURIERS must name couriers among econt, speedy/);
    expect(() => loadConfig({ ...econt, COURIERS: 'econt', DELIVERY_FEES: 'econt_door=4' })).toThrow(/DELIVERY_FEES must list methods with an amount or "courier"/);
    expect(() => loadConfig({ ...econt, COURIERS: 'econt', ECONT_SENDER_OFFICE: 'Plovdiv' })).toThrow(/ECONT_SENDER_OFFICE must be the code/);
  });

  it('leaves the language of new-order notices to each admin unless ORDER_NOTIFY_LANGUAGE sets it', () => {
    expect(loadConfig({}).orderNotifyLanguage).toBeUndefined();
    expect(loadConfig({ ORDER_NOTIFY_LANGUAGE: 'bg' }).orderNotifyLanguage).toBe('bg');
  });

  it('keeps /metrics to this host unless a token is set', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: 'Kx9-metrics-token_0123456789' }).metricsToken).toBe('Kx9-metrics-token_0123456789');
  });

  it('gives a request 300 s to arrive and sheds load only when told the event-loop delay to shed past', () => {
    expect(loadConfig({})).toMatchObject({ requestTimeoutMs: 300_000, maxEventLoopDelayMs: 0 });
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: '600', MAX_EVENT_LOOP_DELAY_MS: '1000' })).toMatchObject({ requestTimeoutMs: 600_000, maxEventLoopDelayMs: 1_000 });
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: '5' })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
    expect(() => loadConfig({ MAX_EVENT_LOOP_DELAY_MS: 'soon' })).toThrow(/MAX_EVENT_LOOP_DELAY_MS/);
  });

  it('trusts no proxy by default, one hop for true, a number of hops, or the proxies at these addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toEqual({ hops: 1 });
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: ' 10.0.0.5, 10.1.0.0/16 ,fd00::/8,loopback' }).trustProxy).toEqual({
      addresses: ['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback'],
    });
  });

  it('reads the seller and its tax documents: ЕИК and VAT number by their check digits, the НАП shop number, the regime and the first invoice number', () => {
    const defaults = loadConfig({});
    expect(defaults.seller).toMatchObject({ uic: '000000000', vatNumber: '' });
    expect(defaults.taxDocuments).toEqual({ napShopNumber: undefined, alternativeRegime: false, invoiceStartNumber: 1 });
    const registered = loadConfig({
      SHOP_UIC: '123456786',
      SHOP_VAT_NUMBER: 'bg 123 456 786',
      SHOP_NAP_NUMBER: 'RF0001234',
      NRA_ALTERNATIVE_REGIME: 'true',
      INVOICE_START_NUMBER: '2000000001',
    });
    expect(registered.seller).toMatchObject({ uic: '123456786', vatNumber: 'BG123456786' });
    expect(registered.taxDocuments).toEqual({ napShopNumber: 'RF0001234', alternativeRegime: true, invoiceStartNumber: 2_000_000_001 });
    // A branch's 13-digit ЕИК is the seller's too.
    expect(loadConfig({ SHOP_UIC: '1213961230342' }).seller.uic).toBe('1213961230342');
  });

  it.each(['10.0.0.300', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1,', '-1', '1.5', '11'])('refuses TRUST_PROXY=%j, naming the values it takes', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY must be false, the number of proxies in front of the shop \(such as 1\), or their addresses/);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PUBLIC_URL', 'shop.example.com'],
    ['DATABASE_URL', 'mysql://localhost/shop'],
    ['ADMIN_EMAILS', 'owner@example.com, not-an-email'],
    ['SEED_DEMO', 'maybe'],
    ['SHOP_MODE', 'production'],
    ['KEEP_SIMULATED_PAYMENTS', 'keep'],
    ['ORDER_NOTIFY_LANGUAGE', 'de'],
    ['SHOP_UIC', '123456789'],
    ['SHOP_UIC', '12345678'],
    ['SHOP_VAT_NUMBER', 'BG123456789'],
    ['SHOP_VAT_NUMBER', '123456786'],
    ['SHOP_VAT_NUMBER', 'DE123456789'],
    ['SHOP_NAP_NUMBER', 'RF 123'],
    ['SHOP_NAP_NUMBER', 'RF000012345'],
    ['NRA_ALTERNATIVE_REGIME', 'sometimes'],
    ['INVOICE_START_NUMBER', '0'],
    ['INVOICE_START_NUMBER', '12345678901'],
    ['INVOICE_START_NUMBER', '1.5'],
    ['PAYMENT_PROVIDER', 'paypal'],
    ['STRIPE_SECRET_KEY', 'pk_live_publishable'],
    ['STRIPE_WEBHOOK_SECRET', 'secret'],
    ['EPAY_MIN', 'D12 345'],
    ['EPAY_SECRET', 'short'],
    ['BANK_IBAN', 'BG80BNBG96611020345679'],
    ['BANK_BIC', 'BNBG'],
  ])('stops with a message naming %s when it is %j', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
