import { useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, Redirect, useLocation } from 'wouter';
import type { AddressInput } from '#shared/addresses.js';
import { giftCardLinesMinor, priceLines } from '#shared/pricing.js';
import { needsOffice, withQuotedFee, type CourierOffice } from '#shared/delivery.js';
import type { LocalizedText } from '#shared/catalog.js';
import { exceedsStock } from '#shared/stock.js';
import { lineExemption } from '#shared/withdrawals.js';
import { DEFAULT_PAYMENT_METHOD, type PaymentMethod } from '#shared/orders.js';
import { legalPath, PAGE_ROUTES, paymentPath, profilePath } from '#shared/routes.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { AddressForm } from '#client/addresses/address-form.js';
import { AddressText } from '#client/addresses/address-text.js';
import { useAddresses, useCreateAddress } from '#client/addresses/addresses-api.js';
import { useCartWithCurrentPrices } from '#client/cart/cart-context.js';
import { newOperationId } from '#client/cart/cart-storage.js';
import { PriceChangeNote } from '#client/cart/price-change-note.js';
import { shortageText } from '#client/cart/shortage-text.js';
import { StockNote } from '#client/cart/stock-note.js';
import { LineChoices } from '#client/cart/line-choices.js';
import { ShipsBy } from '#client/ui/ships-by.js';
import { earlierPriceOf } from '#client/cart/price-change.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { PricingTable } from '#client/orders/order-details.js';
import { markOrderJustPlaced, rememberPaymentInfo } from '#client/orders/order-storage.js';
import { placeOrder } from '#client/orders/orders-api.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { LinePrice } from '#client/ui/line-price.js';
import { usePriceText } from '#client/ui/price.js';
import { LoadingMessage } from '#client/ui/state-message.js';
import { settings } from '#client/settings.js';
import { Localized, useLocalize } from '#client/i18n/localized.js';
import { firstInvoiceBuyerError } from '#shared/invoice-buyer.js';
import { EMPTY_INVOICE_DRAFT, InvoiceRequest, invoiceBuyerOf, type InvoiceDraft } from '#client/orders/invoice-request.js';
import { DeliveryChoice, initialDeliveryMethod, isQuoted, offersDeliveryChoice, useDeliveryQuote } from './delivery-choice.js';
import { DiscountCodeField, useDiscountCode } from './discount-code.js';
import { GiftCardField, giftCardPaymentOf, useGiftCard } from './gift-card.js';

/** What went wrong placing the order: the server's total differed from the one shown, or anything else. */
type Problem = { kind: 'priceChanged' } | { kind: 'message'; text: string };

/** The name and hint of each payment method on its radio. */
const METHOD_TEXTS: Record<PaymentMethod, { label: string; hint: string }> = {
  pay_by_link: { label: 'checkout.payByLink', hint: 'checkout.payByLinkHint' },
  card: { label: 'checkout.card', hint: 'checkout.cardHint' },
  cash_on_delivery: { label: 'checkout.cashOnDelivery', hint: 'checkout.cashOnDeliveryHint' },
  bank_transfer: { label: 'checkout.bankTransfer', hint: 'checkout.bankTransferHint' },
};

/** The method chosen at first: the first the shop offers, as PAYMENT_METHODS lists them in the order it prefers. */
const initialPaymentMethod = (): PaymentMethod => settings.paymentMethods[0] ?? DEFAULT_PAYMENT_METHOD;

export default function CheckoutPage() {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const cart = useCartWithCurrentPrices();
  const addresses = useAddresses(Boolean(user));
  const createAddress = useCreateAddress();
  const queryClient = useQueryClient();
  const showModal = useModal();
  const [, navigate] = useLocation();
  const [chosenAddressId, setChosenAddressId] = useState<string | null>(null);
  const [addingAddress, setAddingAddress] = useState(false);
  const [paymentMethod, setPaymentMethod] = useState<PaymentMethod>(initialPaymentMethod);
  const [deliveryMethod, setDeliveryMethod] = useState(initialDeliveryMethod);
  const [office, setOffice] = useState<CourierOffice | null>(null);
  const [deliveryError, setDeliveryError] = useState<string | null>(null);
  const officeSearch = useRef<HTMLInputElement>(null);
  // One key per visit to checkout: a double click or a retry after a lost answer places one order.
  const [idempotencyKey] = useState(newOperationId);
  const [placing, setPlacing] = useState(false);
  const [placed, setPlaced] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [termsAccepted, setTermsAccepted] = useState(false);
  const [invoice, setInvoice] = useState<InvoiceDraft>(EMPTY_INVOICE_DRAFT);
  const [invoiceError, setInvoiceError] = useState<{ field: string; messageKey: string } | null>(null);
  const termsBox = useRef<HTMLInputElement>(null);
  /** The prices the customer saw when the server last refused the total, by cart line, to flag what changed. */
  const [seenPrices, setSeenPrices] = useState<ReadonlyMap<string, number>>(new Map());
  const priceText = usePriceText();
  const localize = useLocalize();
  /** The lines' names, each once, in the page's language. */
  const namesOf = (lines: readonly { name: LocalizedText }[]) => [...new Set(lines.map((line) => localize(line.name)))];
  const discount = useDiscountCode(cart.items, placing || placed);
  const giftCard = useGiftCard(placing || placed);
  usePageMeta({ page: 'checkout', noIndex: true });
  const selected = (addresses.data ?? []).find((address) => address.id === chosenAddressId) ?? (addresses.data ?? []).find((address) => address.isDefault) ?? addresses.data?.[0];
  const quote = useDeliveryQuote(deliveryMethod, { officeId: office?.id, addressId: selected?.id }, cart.items.map((item) => `${item.id}:${item.quantity}`).join(','));

  if (!user) return <Redirect to={PAGE_ROUTES.home} replace />;
  // An empty copy of the cart kept in this browser waits for the server's, which may hold lines added elsewhere.
  if (cart.isPending || addresses.isPending || (cart.items.length === 0 && cart.awaitingServer)) {
    return <LoadingMessage>{t('checkout.loading')}</LoadingMessage>;
  }
  if (cart.items.length === 0 && !placed) return <Redirect to={PAGE_ROUTES.cart} replace />;

  const saved = addresses.data ?? [];
  const showForm = addingAddress || (addresses.isSuccess && saved.length === 0);
  // Priced as the server will price it, the cash-on-delivery fee and a discount code included: the order is placed only at this total.
  // A method its courier prices costs what the courier quoted for this parcel; until then the order waits for the price.
  const quoted = isQuoted(deliveryMethod);
  const rules = quoted && quote.data ? withQuotedFee(settings.pricing, deliveryMethod, quote.data.feeMinor) : settings.pricing;
  const waitingForQuote = quoted && !quote.data;
  const pricing = priceLines(cart.items, rules, paymentMethod, discount.applied, deliveryMethod);
  const officeMissing = needsOffice(deliveryMethod) && !office;
  const officeRefusesCash = office !== null && paymentMethod === 'cash_on_delivery' && !office.acceptsCashOnDelivery;
  // A gift card pays part or all of that total (but not gift cards bought); the order's own amounts stay as they are.
  const giftCardPayment = giftCardPaymentOf(giftCard, pricing.total - giftCardLinesMinor(cart.items));
  // What the right of withdrawal does not cover, named before the buyer accepts the terms.
  const exemptNames = namesOf(cart.items.filter((item) => !item.giftCard && lineExemption(item.summary, item.returnRule === 'personalised') !== null));
  const sealedNames = namesOf(cart.items.filter((item) => item.returnRule === 'hygiene_sealed'));
  const listText = (names: string[]) => new Intl.ListFormat(language, { type: 'conjunction' }).format(names);
  // A line asking for more than is left would only be refused: the customer changes it in the cart first.
  const shortLines = cart.items.some(exceedsStock);
  // Lines added offline are not on the server yet: an order now would not hold them, nor the total shown.
  const waitingForSync = cart.items.some((item) => item.pendingSync);
  // A line whose choices no longer fit its product is chosen again first: nothing is ordered unseen.
  const choicesChanged = cart.items.some((item) => item.problem);

  const saveAddress = (input: AddressInput) =>
    createAddress.mutate(input, {
      onSuccess: ({ addresses: list }) => {
        setChosenAddressId(list.find((address) => address.isDefault)?.id ?? null);
        setAddingAddress(false);
        setProblem(null);
      },
    });

  const submit = async () => {
    if (!selected) {
      setProblem({ kind: 'message', text: t('checkout.noAddressError') });
      return;
    }
    if (!termsAccepted) {
      setProblem({ kind: 'message', text: t('checkout.errors.termsRequired') });
      termsBox.current?.focus();
      return;
    }
    if (waitingForQuote && !officeMissing) return;
    if (officeMissing || officeRefusesCash) {
      setDeliveryError(officeMissing ? t('checkout.errors.officeRequired') : t('checkout.errors.officeNoCashOnDelivery'));
      officeSearch.current?.focus();
      return;
    }
    const invoiceBuyer = invoiceBuyerOf(invoice);
    const invoiceProblem = invoiceBuyer ? firstInvoiceBuyerError(invoiceBuyer) : null;
    setInvoiceError(invoiceProblem);
    if (invoiceProblem) return;
    if (waitingForSync || shortLines || choicesChanged) return;
    setPlacing(true);
    setProblem(null);
    try {
      // The total shown is the one confirmed: the server places the order only at that total.
      const order = await placeOrder({
        idempotencyKey,
        addressId: selected.id,
        paymentMethod,
        deliveryMethod,
        officeId: office?.id,
        deliveryQuoteId: quoted ? quote.data?.id : undefined,
        expectedTotalMinor: pricing.total,
        language,
        acceptTerms: true,
        invoiceBuyer,
        discountCode: discount.code ?? undefined,
        giftCardCode: giftCardPayment?.code,
        expectedGiftCardMinor: giftCardPayment?.paidMinor,
      });
      setPlaced(true);
      discount.clear();
      giftCard.clear();
      markOrderJustPlaced(order.orderId, order.paymentMethod);
      const cashOnDelivery = order.paymentMethod === 'cash_on_delivery';
      // A gift card may have paid the whole order as it was placed.
      const paid = order.status === 'paid';
      // An order paid to the courier, or paid already, has no payment page to remember anything for.
      if (!cashOnDelivery && !paid) rememberPaymentInfo(order.orderId, { checkoutUrl: order.checkoutUrl, paymentMethod: order.paymentMethod });
      // A bank transfer is made from the buyer's own bank: its page shows where to send the money.
      const bankTransfer = order.paymentMethod === 'bank_transfer' && !paid;
      navigate(bankTransfer ? paymentPath(order.orderId) : profilePath('orders'));
      const placedText = paid
        ? 'checkout.orderCreatedPaid'
        : cashOnDelivery
          ? 'checkout.orderCreatedCashOnDelivery'
          : bankTransfer
            ? 'checkout.orderCreatedBankTransfer'
            : 'checkout.orderCreated';
      showModal({ type: 'success', message: t(placedText, { orderId: order.orderId }) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.carts() });
      void queryClient.invalidateQueries({ queryKey: queryKeys.orders() });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'price_changed' && error.details.field === 'deliveryQuoteId') {
        // The courier's price ran out or the parcel changed: asked again, the new total is shown to confirm.
        void queryClient.invalidateQueries({ queryKey: queryKeys.deliveryQuotes() });
        setProblem({ kind: 'priceChanged' });
      } else if (error instanceof ApiError && error.code === 'price_changed') {
        // Nothing was written: show the cart at today's prices and let the customer confirm that total.
        const seen = new Map(cart.items.map((item) => [item.id, item.priceMinor]));
        try {
          await queryClient.invalidateQueries({ queryKey: queryKeys.carts() }, { throwOnError: true });
          setSeenPrices(seen);
          setProblem({ kind: 'priceChanged' });
        } catch {
          setProblem({ kind: 'message', text: t('checkout.orderProcessingError') });
        }
      } else if (error instanceof ApiError && error.code === 'choices_changed') {
        // The product changed since the line was chosen: the cart, fetched again, marks the line to choose again.
        const { messageKey } = error.details;
        setProblem({ kind: 'message', text: [messageKey ? t(messageKey) : '', t('choices.problemLines')].filter(Boolean).join(' ') });
        void queryClient.invalidateQueries({ queryKey: queryKeys.carts() });
      } else if (error instanceof ApiError && error.code === 'stock_short') {
        // Nothing was written and the cart is as it was; it is fetched again to show what is left.
        const details = (error.details.shortages ?? []).map((shortage) => shortageText(t, language, shortage)).join(' ');
        setProblem({ kind: 'message', text: t('checkout.errors.stockShort', { details }) });
        void queryClient.invalidateQueries({ queryKey: queryKeys.carts() });
      } else if (error instanceof ApiError && error.code === 'discount_refused') {
        // The code changed since it was checked (used up meanwhile, paused, ended): checked again, it says why, and the total is shown without it.
        setProblem({ kind: 'message', text: t('checkout.errors.discountRefused') });
        discount.recheck();
      } else if (error instanceof ApiError && error.code === 'gift_card_refused') {
        // The card paid for another order meanwhile: asked again, it shows what it pays now, or why it pays nothing.
        setProblem({ kind: 'message', text: t('checkout.errors.giftCardRefused') });
        giftCard.recheck();
      } else if (error instanceof ApiError && error.details.field === 'officeId') {
        // The office closed or stopped taking cash since it was chosen: the buyer chooses another.
        setOffice(null);
        setDeliveryError(errorText(t, error));
      } else if (error instanceof ApiError && error.details.field?.startsWith('invoiceBuyer.') && error.details.messageKey) {
        // A rule of the invoice details the server checked: shown under its field, as the form's own check would.
        setInvoiceError({ field: error.details.field.slice('invoiceBuyer.'.length), messageKey: error.details.messageKey });
      } else {
        // A reason the customer can act on (no address, no connection, signed out) is said; a fault on our side keeps the specification's text.
        const reason = error instanceof ApiError && error.code !== 'internal' ? errorText(t, error) : t('checkout.orderProcessingError');
        setProblem({ kind: 'message', text: reason });
      }
      setPlacing(false);
    }
  };

  const problemText =
    problem?.kind === 'priceChanged' ? t('checkout.errors.priceChanged', { total: priceText(pricing.total) }) : (problem?.text ?? null);

  return (
    <section className="checkout" aria-labelledby="checkout-title">
      <h1 id="checkout-title" className="page-title">
        {t('checkout.title')}
      </h1>
      <div className="checkout__grid">
        <div className="panel">
          <h2 className="panel__title">{t('checkout.shippingAddress')}</h2>
          {addresses.isError ? (
            <div role="alert" className="form-error">
              <p>{t('checkout.addressLoadError')}</p>
              <button type="button" className="button" onClick={() => void addresses.refetch()}>
                {t('common.tryAgain')}
              </button>
            </div>
          ) : showForm ? (
            <AddressForm
              saving={createAddress.isPending}
              saveError={createAddress.isError ? t('checkout.addressSaveError') : null}
              saveFailure={createAddress.error}
              onSave={saveAddress}
              onCancel={saved.length > 0 ? () => setAddingAddress(false) : undefined}
            />
          ) : (
            <fieldset className="choice-list">
              <legend className="visually-hidden">{t('checkout.shippingAddress')}</legend>
              {saved.map((address) => (
                <label key={address.id} className="choice">
                  <input type="radio" name="address" checked={address.id === selected?.id} onChange={() => setChosenAddressId(address.id)} />
                  <AddressText address={address} />
                  {address.isDefault && <span className="tag">{t('checkout.defaultBadge')}</span>}
                </label>
              ))}
              <button type="button" className="button" onClick={() => setAddingAddress(true)}>
                {t('checkout.addNewAddress')}
              </button>
            </fieldset>
          )}
          {needsOffice(deliveryMethod) && <p className="muted">{t('checkout.delivery.contactHint')}</p>}
        </div>

        <div className="panel">
          <h2 className="panel__title">{t('checkout.orderSummary')}</h2>
          <ul className="summary-items">
            {cart.items.map((item) => {
              const earlier = earlierPriceOf(item, seenPrices.get(item.id));
              return (
                <li key={item.id}>
                  <span className="summary-items__name">
                    <Localized text={item.name} />
                    <LineChoices item={item} />
                    {item.pendingSync && <span className="tag">{t('cartPage.pendingSync')}</span>}
                    {earlier !== null && <PriceChangeNote earlierMinor={earlier} nowMinor={item.priceMinor} />}
                    <StockNote item={item} />
                  </span>{' '}
                  <span className="summary-items__price">
                    <LinePrice line={item} />
                  </span>
                </li>
              );
            })}
          </ul>
          <DiscountCodeField discount={discount} />
          <GiftCardField giftCard={giftCard} payment={giftCardPayment} />
          <PricingTable pricing={pricing} currency={settings.pricing.currency} giftCard={giftCardPayment} deliveryMethod={deliveryMethod} />
          {/* Gift cards are sent by e-mail once paid: only goods have a day to ship by. */}
          <ShipsBy dates={cart.items.filter((item) => !item.giftCard).map((item) => item.dispatchBy)} />

          {offersDeliveryChoice() && (
            <DeliveryChoice
              method={deliveryMethod}
              onMethod={(method) => {
                setDeliveryMethod(method);
                setDeliveryError(null);
              }}
              office={office}
              onOffice={(chosen) => {
                setOffice(chosen);
                setDeliveryError(null);
              }}
              cashOnDelivery={paymentMethod === 'cash_on_delivery'}
              error={deliveryError}
              searchField={officeSearch}
              quote={quote}
            />
          )}

          <fieldset className="choice-list">
            <legend className="panel__title">{t('checkout.paymentMethod')}</legend>
            {settings.paymentMethods.map((method) => (
              <label key={method} className="choice">
                <input type="radio" name="payment-method" value={method} checked={paymentMethod === method} onChange={() => setPaymentMethod(method)} />
                <span>
                  <strong>{t(METHOD_TEXTS[method].label)}</strong>
                  <br />
                  <span className="muted">{t(METHOD_TEXTS[method].hint)}</span>
                  {method === 'cash_on_delivery' && settings.pricing.cashOnDeliveryFeeMinor > 0 && (
                    <>
                      <br />
                      <span className="muted">{t('checkout.cashOnDeliveryFee', { fee: priceText(settings.pricing.cashOnDeliveryFeeMinor) })}</span>
                    </>
                  )}
                </span>
              </label>
            ))}
          </fieldset>

          <InvoiceRequest draft={invoice} onChange={setInvoice} error={invoiceError} />

          {exemptNames.length > 0 && <p className="exempt-notice">{t('checkout.exemptLines', { count: exemptNames.length, names: listText(exemptNames) })}</p>}
          {sealedNames.length > 0 && <p className="exempt-notice">{t('checkout.sealedLines', { count: sealedNames.length, names: listText(sealedNames) })}</p>}
          <label className="choice choice--terms">
            <input
              ref={termsBox}
              type="checkbox"
              checked={termsAccepted}
              aria-invalid={problem?.kind === 'message' && problem.text === t('checkout.errors.termsRequired')}
              onChange={(event) => {
                setTermsAccepted(event.target.checked);
                if (event.target.checked && problem?.kind === 'message' && problem.text === t('checkout.errors.termsRequired')) setProblem(null);
              }}
            />
            <span>
              {t('checkout.acceptTerms.before')}
              {/* A new tab, so that reading the terms loses nothing of the checkout. */}
              <a href={legalPath('terms')} target="_blank" rel="noopener">
                {t('checkout.acceptTerms.link')}
              </a>
              {t('checkout.acceptTerms.after')}
            </span>
          </label>

          {(problemText || (!selected && !showForm)) && (
            <p className="form-error" role="alert">
              {problemText ?? t('checkout.noAddressError')}
            </p>
          )}
          {!selected && showForm && !problem && <p className="muted">{t('checkout.noAddressError')}</p>}
          {waitingForSync && <p className="muted">{t('checkout.waitingForSync')}</p>}
          {shortLines && <p className="muted">{t('checkout.shortLines')}</p>}
          {choicesChanged && <p className="muted">{t('choices.problemLines')}</p>}
          <div className="form-actions">
            <button type="button" className="button button--primary" onClick={() => void submit()} disabled={placing || showForm || waitingForSync || shortLines || choicesChanged || discount.checking || giftCard.checking || (waitingForQuote && !officeMissing)}>
              {placing ? t('checkout.placing') : t('checkout.placeOrder')}
            </button>
            <Link href={PAGE_ROUTES.cart} className="button">
              {t('checkout.backToCart')}
            </Link>
          </div>
        </div>
      </div>
    </section>
  );
}
