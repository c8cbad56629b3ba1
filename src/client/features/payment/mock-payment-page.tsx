import { useEffect, useId, useState, type FormEvent, type InputHTMLAttributes } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'wouter';
import { MOCK_PAYMENT_METHOD_PARAM, paymentPath } from '#shared/routes.js';
import {
  CARD_CVV_MAX_LENGTH,
  CARD_EXPIRY_MAX_LENGTH,
  CARD_NUMBER_MAX_LENGTH,
  firstCardError,
  formatCardNumber,
  formatExpiry,
  lastFourDigits,
  type CardInput,
} from '#shared/card.js';
import { MOCK_PROCESSING_MS, MOCK_SUCCESS_MS, type PaymentMethod } from '#shared/orders.js';
import { ApiError } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { recordPayment, useOrder } from '#client/orders/orders-api.js';
import { amountDue, paymentStateOf } from '#shared/orders.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { usePriceText } from '#client/ui/price.js';
import { SignInRequired } from '#client/ui/sign-in-required.js';
import { notPayableText } from './not-payable.js';

type Step = 'form' | 'processing' | 'success';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The simulated payment provider's page: standalone, as a real provider's would be. Only the last
 * four digits of a card leave this page.
 */
export default function MockPaymentPage() {
  const { t } = useTranslation();
  const priceText = usePriceText();
  const { user } = useSession();
  const { orderId = '' } = useParams<{ orderId: string }>();
  const [searchParams] = useSearchParams();
  const [, navigate] = useLocation();
  const method: PaymentMethod = searchParams.get(MOCK_PAYMENT_METHOD_PARAM) === 'card' ? 'card' : 'pay_by_link';
  const order = useOrder(orderId, { poll: false, enabled: Boolean(user) });
  const [card, setCard] = useState<CardInput>({ number: '', holder: '', expiry: '', cvv: '' });
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [step, setStep] = useState<Step>('form');
  /** The provider refused the payment because the order is no longer pending (cancelled meanwhile, say). */
  const [refused, setRefused] = useState(false);
  const id = useId();
  usePageMeta({ page: 'mockPayment', noIndex: true });

  useEffect(() => {
    if (step !== 'success') return;
    const timer = setTimeout(() => {
      window.opener?.postMessage({ type: 'PAYMENT_COMPLETED', orderId }, window.location.origin);
      window.close();
      // Still here when the window was not opened by script and may not close itself.
      navigate(paymentPath(orderId, { completed: true }), { replace: true });
    }, MOCK_SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [step, orderId, navigate]);

  if (!user) {
    return (
      <main className="mock-payment">
        <SignInRequired messageKey="payment.signInRequired" />
      </main>
    );
  }

  const pay = async (event: FormEvent) => {
    event.preventDefault();
    const problem = method === 'card' ? firstCardError(card) : null;
    setErrorKey(problem);
    if (problem) return;
    setStep('processing');
    try {
      await Promise.all([
        wait(MOCK_PROCESSING_MS),
        recordPayment(orderId, method === 'card' ? { method, cardLast4: lastFourDigits(card.number) } : { method }),
      ]);
      setStep('success');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'order_not_payable') {
        setRefused(true);
        setErrorKey(null);
        // The order as it now is says why: cancelled, or paid in another window.
        await order.refetch();
      } else {
        setErrorKey('mockPayment.failed');
      }
      setStep('form');
    }
  };

  // What is left to pay: a gift card may have paid part of the total at checkout.
  const amount = order.data ? priceText(amountDue(order.data), order.data.currency) : '';
  // Only in the form step: once this window has paid, the order's own update to paid is no obstacle.
  const notPayable =
    step === 'form' && order.data
      ? (notPayableText(t, order.data, paymentStateOf(order.data)) ?? (refused ? t('payment.notPayable', { orderId }) : null))
      : null;
  const loadProblem =
    order.error instanceof ApiError
      ? order.error.status === 403
        ? 'payment.unauthorizedAccess'
        : order.error.status === 404
          ? 'payment.orderNotFound'
          : 'payment.orderLoadError'
      : order.isError
        ? 'payment.orderLoadError'
        : null;
  const field = (name: keyof CardInput, label: string, props: InputHTMLAttributes<HTMLInputElement>, format = (value: string) => value) => (
    <div className="field">
      <label className="field__label" htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className="field__input"
        value={card[name]}
        onChange={(event) => setCard((current) => ({ ...current, [name]: format(event.target.value) }))}
        {...props}
      />
    </div>
  );

  return (
    <main className="mock-payment">
      <div className="mock-payment__box">
        <h1 className="page-title">{t('mockPayment.title')}</h1>
        <p className="notice">{t('mockPayment.notice')}</p>
        {loadProblem ? (
          <p className="form-error" role="alert">
            {t(loadProblem)}
          </p>
        ) : notPayable ? (
          <>
            <p className="notice notice--warning" role="status">
              {notPayable}
            </p>
            <Link href={paymentPath(orderId)}>{t('mockPayment.backToShop')}</Link>
          </>
        ) : step === 'processing' ? (
          <p className="state-message" role="status">
            <span className="spinner" aria-hidden="true" /> {t('mockPayment.processing')}
          </p>
        ) : step === 'success' ? (
          <div role="status">
            <h2 className="dialog__title">{t('mockPayment.successTitle')}</h2>
            <p>{t('mockPayment.successText')}</p>
          </div>
        ) : (
          <form onSubmit={(event) => void pay(event)} noValidate>
            <p className="mock-payment__amount">
              {t('mockPayment.amount')}: <strong>{amount}</strong>
            </p>
            {method === 'card' && (
              <>
                {field('number', t('mockPayment.cardNumber'), { inputMode: 'numeric', autoComplete: 'cc-number', maxLength: CARD_NUMBER_MAX_LENGTH, placeholder: '1234 5678 9012 3456' }, formatCardNumber)}
                {field('holder', t('mockPayment.cardHolder'), { autoComplete: 'cc-name' })}
                <div className="address-form__row">
                  {field('expiry', t('mockPayment.expiry'), { inputMode: 'numeric', autoComplete: 'cc-exp', maxLength: CARD_EXPIRY_MAX_LENGTH, placeholder: t('mockPayment.expiryPlaceholder') }, formatExpiry)}
                  {field('cvv', t('mockPayment.cvv'), { inputMode: 'numeric', autoComplete: 'cc-csc', maxLength: CARD_CVV_MAX_LENGTH }, (value) => value.replace(/\D/g, ''))}
                </div>
              </>
            )}
            {errorKey && (
              <p className="form-error" role="alert">
                {t(errorKey)}
              </p>
            )}
            <button type="submit" className="button button--primary dialog__wide-button" disabled={!order.data}>
              {method === 'card' ? t('mockPayment.pay', { amount }) : t('mockPayment.completePayment')}
            </button>
          </form>
        )}
      </div>
    </main>
  );
}
