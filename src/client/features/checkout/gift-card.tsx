import { giftCardEnding, payWithGiftCard, type GiftCardBalance } from '#shared/gift-cards.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { usePriceText } from '#client/ui/price.js';
import { CodeField, useCodeCheck, useTypedCode, type TypedCode } from './code-field.js';


const checkCard = async (code: string) =>
  (await requestJson<{ card: GiftCardBalance }>('/api/gift-cards/check', { method: 'POST', body: JSON.stringify({ code }) })).card;

export interface GiftCardState extends TypedCode {
  /** What is left on the applied card, once the server has said. */
  card: GiftCardBalance | null;
  checking: boolean;
  /** Why the card pays nothing, in the buyer's language; null when it pays or none was typed. */
  problem: string | null;
  /** Asks the server again (after it refused the card at checkout). */
  recheck: () => void;
  /** Forgets the card (after the order is placed). */
  clear: () => void;
}

/** What the applied card pays of a total, as the order will record it; null while it pays nothing. */
export interface GiftCardPaymentShown {
  code: string;
  ending: string;
  paidMinor: number;
  leftMinor: number;
}

/**
 * The checkout's gift card: what is left on it is asked of the server when the buyer applies the
 * card, and again whenever an order may have changed it (its query is stale with the cart's), but not
 * while the buyer's own order is `placing`, nor after (useCodeCheck).
 */
export function useGiftCard(placing: boolean): GiftCardState {
  const { t } = useTranslation();
  const code = useTypedCode('checkout.giftCard');
  const { applied, apply } = code;
  const { check, recheck } = useCodeCheck(queryKeys.giftCard(applied), () => checkCard(applied), { enabled: applied !== '', placing, staleTime: 30_000 });

  return {
    ...code,
    card: check.data ?? null,
    checking: check.isFetching,
    problem: check.isError ? errorText(t, check.error) : null,
    recheck,
    clear: () => apply(''),
  };
}

/**
 * A gift card is a means of payment: it pays part or all of what it may pay of the order's total
 * (payWithGiftCard: everything but gift cards bought), never changing the order's lines or tax.
 */
export function giftCardPaymentOf(giftCard: GiftCardState, payableMinor: number): GiftCardPaymentShown | null {
  if (!giftCard.card || giftCard.applied === '') return null;
  const paid = payWithGiftCard(payableMinor, giftCard.card.balanceMinor);
  if (paid.paidMinor === 0) return null;
  return { code: giftCard.applied, ending: giftCardEnding(giftCard.card.code), paidMinor: paid.paidMinor, leftMinor: paid.balanceAfterMinor };
}

/** The gift card's field in the order summary, with what the card pays or why it pays nothing. */
export function GiftCardField({ giftCard, payment }: { giftCard: GiftCardState; payment: GiftCardPaymentShown | null }) {
  const { t } = useTranslation();
  const priceText = usePriceText();
  return (
    <CodeField
      label={t('checkout.giftCard.label')}
      name="giftCardCode"
      code={giftCard}
      checking={giftCard.checking}
      problem={giftCard.problem}
      appliedText={payment ? t('checkout.giftCard.applied', { ending: payment.ending, paid: priceText(payment.paidMinor), left: priceText(payment.leftMinor) }) : ''}
      texts={{ apply: t('checkout.giftCard.apply'), remove: t('checkout.giftCard.remove'), checking: t('checkout.giftCard.checking') }}
    />
  );
}
