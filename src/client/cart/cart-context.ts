import { createContext, useContext, useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { CartItem } from '#shared/cart.js';
import type { Product } from '#shared/catalog.js';
import type { ChoiceProblem } from '#shared/product-options.js';
import { TranslatedError } from '#client/api/error-text.js';
import { queryKeys } from '#client/api/query-keys.js';
import type { ShownCartItem } from './cart-storage.js';

/** A failure whose text is meant for the customer, already translated. */
export class CartError extends TranslatedError {}

/** The shop refused the line's choices: `problem` names the field, for the page to show the message beside it. */
export class ChoicesRefused extends CartError {
  constructor(
    message: string,
    readonly problem: ChoiceProblem,
  ) {
    super(message);
  }
}

/** A product's line as the buyer chose it on its page: the choices, their key and names, and the price with them. */
export type ChosenLine = Pick<CartItem, 'choices' | 'choiceKey' | 'summary' | 'priceMinor'>;

/** The signed-in customer's cart as every view sees it, and the changes they may make to it. */
export interface Cart {
  items: ShownCartItem[];
  isPending: boolean;
  /** The copy kept in this browser is shown while the server's is on its way: an empty one may not be empty for long. */
  awaitingServer: boolean;
  isError: boolean;
  refetch(): void;
  /**
   * Resolves with offline true when the addition waits in the offline queue; otherwise with the line
   * as the server added it, at the product's current name and price. A product with options, sizes or
   * questions is added with the buyer's `chosen` line; refused choices throw ChoicesRefused.
   */
  add(product: Pick<Product, 'id' | 'slug' | 'name' | 'priceMinor' | 'stock'>, chosen?: ChosenLine): Promise<{ offline: boolean; added?: CartItem }>;
  /** Sets a line's quantity; refused with a CartError naming what is left when the product has fewer pieces. */
  setQuantity(item: ShownCartItem, quantity: number): Promise<void>;
  /** Takes the whole line out. */
  remove(item: ShownCartItem): Promise<void>;
}

/** Filled by CartProvider (cart-provider.tsx). */
export const CartContext = createContext<Cart | null>(null);

export function useCart(): Cart {
  const cart = useContext(CartContext);
  if (!cart) throw new Error('useCart needs a CartProvider');
  return cart;
}

/**
 * The cart for a page that shows its prices (cart, checkout): asked of the server again as the page
 * opens, since a product's price may have changed after the cart was last loaded while the live
 * stream, which would have said so, was down or refused.
 */
export function useCartWithCurrentPrices(): Cart {
  const cart = useCart();
  const queryClient = useQueryClient();
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.carts() });
  }, [queryClient]);
  return cart;
}
