import { useEffect, useRef, useState } from 'react';
import { Link, Redirect, useLocation } from 'wouter';
import { MAX_CART_PIECES, pieceCount } from '#shared/cart.js';
import { taxPercentText } from '#shared/money.js';
import { freeShippingGap, priceLines } from '#shared/pricing.js';
import { PAGE_ROUTES, profilePath } from '#shared/routes.js';
import { settings } from '#client/settings.js';
import { CartError, useCartWithCurrentPrices } from '#client/cart/cart-context.js';
import type { ShownCartItem } from '#client/cart/cart-storage.js';
import { PriceChangeNote } from '#client/cart/price-change-note.js';
import { shortageText } from '#client/cart/shortage-text.js';
import { earlierPriceOf } from '#client/cart/price-change.js';
import { StockNote } from '#client/cart/stock-note.js';
import { LineChoices, useLineName } from '#client/cart/line-choices.js';
import { ShipsBy } from '#client/ui/ships-by.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { LinePrice } from '#client/ui/line-price.js';
import { Price, usePriceText } from '#client/ui/price.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { SignInRequired } from '#client/ui/sign-in-required.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { Localized } from '#client/i18n/localized.js';

/** Set by checkout when an order was just placed (spec section 7, session flags). */
const ORDER_JUST_PLACED = 'orderJustPlaced';

export default function CartPage() {
  const { t, language } = useTranslation();
  const lineName = useLineName();
  const { user } = useSession();
  const cart = useCartWithCurrentPrices();
  const showModal = useModal();
  const [, navigate] = useLocation();
  const [removing, setRemoving] = useState<string | null>(null);
  const [changing, setChanging] = useState<string | null>(null);
  const priceText = usePriceText();
  const titleRef = useRef<HTMLHeadingElement>(null);
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  /** The line being removed and the line whose Remove button takes the focus once it has left the list. */
  const focusAfterRemoval = useRef<{ removedId: string; nextId: string | null } | null>(null);
  usePageMeta({ page: 'cart', noIndex: true });

  // The focused Remove button leaves with its line; without this the focus would fall to <body> and a
  // keyboard user would start again at the top of the page.
  useEffect(() => {
    const pending = focusAfterRemoval.current;
    if (!pending || cart.items.some((item) => item.id === pending.removedId)) return;
    focusAfterRemoval.current = null;
    const next = pending.nextId ? removeButtons.current.get(pending.nextId) : undefined;
    (next ?? titleRef.current)?.focus();
  }, [cart.items]);

  if (!user) return <SignInRequired messageKey="cartPage.signInPrompt" />;
  if (sessionStorage.getItem(ORDER_JUST_PLACED)) return <Redirect to={profilePath('orders')} replace />;

  const remove = async (item: ShownCartItem) => {
    if (removing === item.id) return;
    const index = cart.items.findIndex((line) => line.id === item.id);
    const next = cart.items[index + 1] ?? cart.items[index - 1];
    focusAfterRemoval.current = { removedId: item.id, nextId: next?.id ?? null };
    setRemoving(item.id);
    try {
      await cart.remove(item);
    } catch {
      focusAfterRemoval.current = null;
      showModal({ type: 'error', message: t('cartPage.removeError') });
    } finally {
      setRemoving(null);
    }
  };

  const changeQuantity = async (item: ShownCartItem, quantity: number) => {
    if (changing === item.id) return;
    setChanging(item.id);
    try {
      await cart.setQuantity(item, quantity);
    } catch (error) {
      showModal({ type: 'error', message: error instanceof CartError ? error.message : t('cartPage.quantityError') });
    } finally {
      setChanging(null);
    }
  };

  if (cart.isPending) {
    return <LoadingMessage>{t('cartPage.loading')}</LoadingMessage>;
  }
  if (cart.isError) {
    return <LoadErrorMessage message={t('cartPage.loadError')} onRetry={cart.refetch} />;
  }

  const { subtotal } = priceLines(cart.items, settings.pricing);
  const shippingGap = freeShippingGap(subtotal, settings.pricing);
  const cartFull = pieceCount(cart.items) >= MAX_CART_PIECES;
  const pricesChanged = cart.items.some((item) => earlierPriceOf(item) !== null);
  // A line whose choices no longer fit its product would only be refused at checkout.
  const choicesChanged = cart.items.some((item) => item.problem);
  return (
    <section className="cart" aria-labelledby="cart-title">
      <h1 id="cart-title" className="page-title" ref={titleRef} tabIndex={-1}>
        {t('cartPage.title')}
      </h1>
      {cart.items.length === 0 ? (
        <div className="panel panel--narrow">
          <p className="state-message">{t('cartPage.empty')}</p>
          <Link href={PAGE_ROUTES.home} className="button button--primary">
            {t('cartPage.browse')}
          </Link>
        </div>
      ) : (
        <div className="panel">
          {pricesChanged && (
            <p className="notice notice--warning" role="status">
              {t('cartPage.pricesChangedNotice')}
            </p>
          )}
          <ul className="cart__items">
            {cart.items.map((item) => {
              const earlier = earlierPriceOf(item);
              return (
                <li key={item.id} className="cart__item">
                  <div className="cart__item-text">
                    <span className="cart__item-name">
                      <Localized text={item.name} />
                    </span>
                    <LineChoices item={item} />
                    {item.pendingSync && <span className="tag">{t('cartPage.pendingSync')}</span>}
                    {earlier !== null && <PriceChangeNote earlierMinor={earlier} nowMinor={item.priceMinor} />}
                    <StockNote item={item} />
                  </div>
                  <div className="quantity-stepper" role="group" aria-label={t('cartPage.quantity')}>
                    {/* Not disabled at their limits: a disabled button would drop the focus of a keyboard user stepping through. */}
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('cartPage.decrease', { productName: lineName(item) })}
                      aria-disabled={item.quantity <= 1 || changing === item.id || undefined}
                      onClick={() => {
                        if (item.quantity > 1) void changeQuantity(item, item.quantity - 1);
                      }}
                    >
                      −
                    </button>
                    <output className="quantity-stepper__count" aria-live="polite" aria-label={t('cartPage.quantityOf', { productName: lineName(item), count: item.quantity })}>
                      {item.quantity}
                    </output>
                    <button
                      type="button"
                      className="button button--small"
                      aria-label={t('cartPage.increase', { productName: lineName(item) })}
                      aria-disabled={(item.stock !== null && item.quantity >= item.stock) || cartFull || changing === item.id || undefined}
                      onClick={() => {
                        if (changing === item.id) return;
                        // At the count the server would refuse too: the customer is told what is left instead.
                        if (item.stock !== null && item.quantity >= item.stock) showModal({ type: 'warning', message: shortageText(t, language, { name: item.name, left: item.stock }) });
                        else void changeQuantity(item, item.quantity + 1);
                      }}
                    >
                      +
                    </button>
                  </div>
                  <span className="cart__item-price">
                    <LinePrice line={item} />
                  </span>
                  <button
                    type="button"
                    className="button button--small button--ghost cart__remove"
                    ref={(button) => {
                      if (button) removeButtons.current.set(item.id, button);
                      else removeButtons.current.delete(item.id);
                    }}
                    onClick={() => void remove(item)}
                    // Not disabled: a disabled button loses the focus before it could be moved on.
                    aria-disabled={removing === item.id || undefined}
                    aria-label={t('cartPage.removeLabel', { productName: lineName(item) })}
                  >
                    {t('cartPage.remove')}
                  </button>
                </li>
              );
            })}
          </ul>
          {/* Only the subtotal: tax and shipping come at checkout, and a "Total" here would promise less than the order costs. */}
          <p className="cart__total">
            <span>{t('cartPage.subtotal')}</span>
            <Price minor={subtotal} />
          </p>
          <ShipsBy dates={cart.items.filter((item) => !item.giftCard).map((item) => item.dispatchBy)} />
          <p className="muted cart__note">
            {t(
              shippingGap === 0
                ? settings.pricing.pricesIncludeTax
                  ? 'cartPage.taxIncludedNoteFreeShipping'
                  : 'cartPage.taxNoteFreeShipping'
                : settings.pricing.pricesIncludeTax
                  ? 'cartPage.taxIncludedShippingNote'
                  : 'cartPage.taxShippingNote',
              { percent: taxPercentText(settings.pricing.taxRateBasisPoints), shipping: priceText(settings.pricing.shippingMinor) },
            )}
          </p>
          {/* Told as the cart changes, without moving the focus. */}
          <p className="cart__free-shipping" aria-live="polite">
            {shippingGap !== null && shippingGap > 0 && t('cartPage.freeShippingGap', { amount: priceText(shippingGap) })}
          </p>
          <div className="cart__actions">
            <Link href={PAGE_ROUTES.home} className="button">
              {t('cartPage.continueShopping')}
            </Link>
            <button
              type="button"
              className="button button--primary"
              aria-disabled={choicesChanged || undefined}
              aria-describedby={choicesChanged ? 'cart-choices-changed' : undefined}
              onClick={() => {
                if (!choicesChanged) navigate(PAGE_ROUTES.checkout);
              }}
            >
              {t('cartPage.checkout')}
            </button>
          </div>
          {choicesChanged && (
            <p className="muted" id="cart-choices-changed">
              {t('choices.problemLines')}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
