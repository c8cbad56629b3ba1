import { useState } from 'react';
import { pickText, type Product } from '#shared/catalog.js';
import { errorText } from '#client/api/error-text.js';
import { ChoicesRefused, useCart, type ChosenLine } from '#client/cart/cart-context.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useSession } from '#client/session/session.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { usePriceText } from '#client/ui/price.js';

/**
 * Adding a product to the cart from a card or a product page, with the specification's messages:
 * sign in first, "{productName} added to cart!", or why it failed. `adding` holds the products
 * whose addition is on its way. A product page adds the buyer's `chosen` line, and hears of refused
 * choices through `onRefused` to show them beside their fields.
 */
export function useAddToCart() {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const showModal = useModal();
  const priceText = usePriceText();
  const cart = useCart();
  const [adding, setAdding] = useState<ReadonlySet<string>>(new Set());

  const addToCart = async (product: Product, chosen?: ChosenLine, onRefused?: (refusal: ChoicesRefused) => void) => {
    if (!user) {
      showModal({ type: 'info', message: t('products.signInRequired') });
      return;
    }
    setAdding((ids) => new Set(ids).add(product.id));
    try {
      const { offline, added } = await cart.add(product, chosen);
      // The message names the product as the cart holds it, and says so when its price is not the one this page showed.
      const productName = pickText(added?.name ?? product.name, language).text;
      const message =
        added && added.priceMinor !== (chosen ?? product).priceMinor
          ? t('products.addedAtNewPrice', { productName, price: priceText(added.priceMinor) })
          : t(offline ? 'products.addedOffline' : 'products.addedToCart', { productName });
      showModal({ type: 'success', message });
    } catch (error) {
      if (onRefused && error instanceof ChoicesRefused) return onRefused(error);
      showModal({ type: 'error', message: t('products.addError', { errorMessage: errorText(t, error) }) });
    } finally {
      setAdding((ids) => {
        const next = new Set(ids);
        next.delete(product.id);
        return next;
      });
    }
  };

  return { adding, addToCart };
}
