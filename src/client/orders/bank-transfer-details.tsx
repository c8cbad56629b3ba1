import { amountDue, type Order } from '#shared/orders.js';
import type { BankAccount } from '#shared/payment-methods.js';
import { formatIban } from '#shared/withdrawals.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Price } from '#client/ui/price.js';

/** Where a buyer paying by bank transfer sends the money: the shop's account, the amount and the reference that names her order. */
export function BankTransferDetails({ order, account, headingLevel = 2 }: { order: Order; account: BankAccount; headingLevel?: 2 | 3 }) {
  const { t } = useTranslation();
  const Heading = `h${headingLevel}` as const;
  return (
    <section className="bank-details" aria-labelledby={`bank-details-${order.orderId}`}>
      <Heading id={`bank-details-${order.orderId}`} className="order-details__heading">
        {t('payment.bankDetailsTitle')}
      </Heading>
      <dl className="bank-details__facts">
        <div>
          <dt>{t('payment.accountName')}</dt>
          <dd>{account.accountName}</dd>
        </div>
        <div>
          <dt>{t('payment.iban')}</dt>
          <dd className="bank-details__number">{formatIban(account.iban)}</dd>
        </div>
        {account.bic && (
          <div>
            <dt>{t('payment.bic')}</dt>
            <dd className="bank-details__number">{account.bic}</dd>
          </div>
        )}
        <div>
          <dt>{t('payment.amount')}</dt>
          <dd>
            <Price minor={amountDue(order)} currency={order.currency} />
          </dd>
        </div>
        <div>
          <dt>{t('payment.reference')}</dt>
          <dd className="bank-details__number">{t('payment.referenceText', { orderId: order.orderId })}</dd>
        </div>
      </dl>
    </section>
  );
}
