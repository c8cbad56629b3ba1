import { SPEC_PRICING, type PricingRules } from './money.js';
import type { DeliveryMethod } from './delivery.js';
import type { PaymentMethod } from './orders.js';
import type { BankAccount, PaymentProviderName } from './payment-methods.js';

/** A demo shop (the default) says so in a banner, seeds the demo catalogue and takes simulated payments; a live shop does none of that. */
export const SHOP_MODES = ['demo', 'live'] as const;
export type ShopMode = (typeof SHOP_MODES)[number];

/** The only server settings the browser sees; the server writes them into the page it serves. */
export interface PublicSettings {
  supportEmail: string;
  publicUrl: string;
  /** True when the dev outbox collects sign-in e-mails instead of a real mail server. */
  devMailbox: boolean;
  /** How the shop prices: its currency, tax, shipping and cash-on-delivery fee (the server's rules, for display). */
  pricing: PricingRules;
  /** Show the BGN equivalent beside every euro amount (the changeover rule). */
  showBgnEquivalent: boolean;
  /** The payment methods offered at checkout, in order. */
  paymentMethods: PaymentMethod[];
  /** The delivery methods offered at checkout, in order (their fees are in pricing). */
  deliveryMethods: DeliveryMethod[];
  /** A demo shop shows the demo banner. */
  shopMode: ShopMode;
  /** Who takes the online payments: the simulated provider's window, or a real provider's page. */
  paymentProvider: PaymentProviderName;
  /** The account bank transfers go to; null when the shop takes none. */
  bankAccount: BankAccount | null;
}

/** What a page without the server's settings (a test, a cached shell) assumes: the specification's shop. */
export const DEFAULT_PUBLIC_SETTINGS: Omit<PublicSettings, 'publicUrl'> = {
  supportEmail: 'support@nail-art.example',
  devMailbox: false,
  pricing: SPEC_PRICING,
  showBgnEquivalent: false,
  paymentMethods: ['pay_by_link', 'card'],
  deliveryMethods: ['address'],
  shopMode: 'demo',
  paymentProvider: 'simulated',
  bankAccount: null,
};

export const PUBLIC_SETTINGS_ELEMENT_ID = 'shop-settings';
