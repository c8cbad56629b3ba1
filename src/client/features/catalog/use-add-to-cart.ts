import { useState } from 'react';
import { pickText, type Product } from '../../../shared/catalog.js';
import { errorText } from '../../api/error-text.js';
import { useCart } from '../../cart/cart-context.js';
import { useTranslation } from '../../i18n/i18n.js';
import { useSession } from '../../session/session.js';
import { useModal } from '../../ui/modal/modal-context.js';
import { usePriceText } from '../../ui/price.js';

/**
 * Adding a product to the cart from a card or a product page, with the specification's messages:
 * sign in first, "{productName} added to cart!", or why it failed. `adding` holds the products
 * whose addition is on its way.
 */
export function useAddToCart() {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const showModal = useModal();
  const priceText = usePriceText();
  const cart = useCart();
  const [adding, setAdding] = useState<ReadonlySet<string>>(new Set());

  const addToCart = async (product: Product) => {
    if (!user) {
      showModal({ type: 'info', message: t('products.signInRequired') });
      return;
    }
    setAdding((ids) => new Set(ids).add(product.id));
    try {
      const { offline, added } = await cart.add(product);
      // The message names the product as the cart holds it, and says so when its price is not the one this page showed.
      const productName = pickText(added?.name ?? product.name, language).text;
      const message =
        added && added.priceMinor !== product.priceMinor
          ? t('products.addedAtNewPrice', { productName, price: priceText(added.priceMinor) })
          : t(offline ? 'products.addedOffline' : 'products.addedToCart', { productName });
      showModal({ type: 'success', message });
    } catch (error) {
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
