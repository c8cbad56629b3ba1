import { applyDiscount, discountRefusalKey, type AppliedDiscount, type DiscountTerms } from '#shared/discounts.js';
import type { CartItem } from '#shared/cart.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { usePriceText } from '#client/ui/price.js';
import { CodeField, useCodeCheck, useTypedCode, type TypedCode } from './code-field.js';

const checkCode = async (code: string) =>
  (await requestJson<{ terms: DiscountTerms }>('/api/discount-codes/check', { method: 'POST', body: JSON.stringify({ code }) })).terms;

export interface DiscountCodeState {
  /** The code as typed, to send with the order; null while none applies. */
  code: string | null;
  /** What it takes off the cart as it is now, for priceLines; null while none applies. */
  applied: AppliedDiscount | null;
  /** The code field's state, for DiscountCodeField. */
  field: TypedCode & { problem: string | null };
  /** A code is being checked: the total is not known yet. */
  checking: boolean;
  /** Checks the applied code again (after the server refused it at checkout). */
  recheck: () => void;
  /** Forgets the code (after the order is placed). */
  clear: () => void;
}

/**
 * The checkout's discount code: typed and applied, checked by the server against the cart's products
 * (again whenever they change), and applied to the cart by the shared rule (applyDiscount), so the
 * discount shown is the one the order gets. A code that does not apply to the cart as it is now says
 * why and takes nothing off; the order is then placed without it. Not asked while the buyer's own
 * order is `placing`, nor after (useCodeCheck).
 */
export function useDiscountCode(items: readonly CartItem[], placing: boolean): DiscountCodeState {
  const { t } = useTranslation();
  const priceText = usePriceText();
  const typedCode = useTypedCode('checkout.discountCode');
  const code = typedCode.applied;
  const productIds = [...new Set(items.map((item) => item.productId))].sort().join(',');
  const { check, recheck } = useCodeCheck(queryKeys.discountCode(code, productIds), () => checkCode(code), { enabled: code !== '', placing, staleTime: Infinity });

  const result = check.data ? applyDiscount(check.data, items) : null;
  const applied = result && !('refusal' in result) ? result : null;
  const problem = check.isError
    ? errorText(t, check.error)
    : result && 'refusal' in result
      ? t(discountRefusalKey(result.refusal), { minimum: priceText(check.data?.minSubtotalMinor ?? 0) })
      : null;

  return {
    code: applied ? code : null,
    applied,
    field: { ...typedCode, problem },
    checking: check.isFetching,
    recheck,
    clear: () => typedCode.apply(''),
  };
}

/** The discount code's field in the order summary, with what the code takes off or why it takes nothing. */
export function DiscountCodeField({ discount }: { discount: DiscountCodeState }) {
  const { t } = useTranslation();
  const { field } = discount;
  return (
    <CodeField
      label={t('checkout.discountCode.label')}
      name="discountCode"
      code={field}
      checking={discount.checking}
      problem={field.problem}
      appliedText={discount.applied ? t('checkout.discountCode.applied', { code: discount.applied.code }) : ''}
      texts={{ apply: t('checkout.discountCode.apply'), remove: t('checkout.discountCode.remove'), checking: t('checkout.discountCode.checking') }}
    />
  );
}
