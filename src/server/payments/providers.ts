import type { PaymentProviderSettings } from '#server/config.js';
import { epayProvider } from './epay-provider.js';
import type { PaymentProvider } from './payment-provider.js';
import { simulatedProvider } from './simulated-provider.js';
import { stripeProvider } from './stripe-provider.js';

/** The provider PAYMENT_PROVIDER chose, with its settings. */
export function paymentProviderFor(settings: PaymentProviderSettings, publicUrl: string): PaymentProvider {
  switch (settings.name) {
    case 'simulated':
      return simulatedProvider(publicUrl);
    case 'stripe':
      return stripeProvider(settings);
    case 'epay':
      return epayProvider({ merchantId: settings.merchantId, secret: settings.secret, url: settings.url });
  }
}
