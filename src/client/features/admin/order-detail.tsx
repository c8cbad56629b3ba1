import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { orderStatusSchema } from '#shared/admin-order-schemas.js';
import { isToBeSent, ORDER_STATUSES, type OrderStatus } from '#shared/order-status.js';
import type { AdminOrderDetail } from '#shared/admin.js';
import { amountDue, dayText, paymentStateOf } from '#shared/orders.js';
import type { StockChange } from '#shared/stock.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { shortageText } from '#client/cart/shortage-text.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { OrderDetails } from '#client/orders/order-details.js';
import { OrderDocuments } from '#client/orders/order-documents.js';
import { OrderNumber } from '#client/orders/order-number.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { Price, usePriceText } from '#client/ui/price.js';
import { ConfirmDialog } from '#client/ui/confirm-dialog.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { changeStatus, recordBankTransfer, recordCashPayment, useAdminOrder } from './admin-api.js';
import { PaymentNotices } from './payment-notices.js';
import { settings } from '#client/settings.js';
import { OrderMails } from './order-mails.js';
import { OrderShipment } from './order-shipment.js';
import { Localized, useLocalize } from '#client/i18n/localized.js';
import { EMPTY_CHOICE_SUMMARY, hasChoices } from '#shared/product-options.js';
import type { OrderAfterSale } from '#shared/withdrawals.js';
import { LineChoices } from './line-choices.js';
import { CorrectInvoice } from './correct-invoice.js';
import { RefundForm } from './refund-form.js';

type TimelineEntry =
  | { kind: 'status'; status: OrderStatus; at: string }
  | { kind: 'stock'; change: StockChange; at: string }
  | { kind: 'note'; text: string; values?: Record<string, string>; at: string }
  | { kind: 'courier'; description: { en: string; bg: string }; place: string; at: string };

/** Money is left to refund, and no withdrawal waits for its own refund (the Returns tab makes that one, with its shipping). */
const refundableWithoutWithdrawal = (afterSale: OrderAfterSale) =>
  afterSale.paidMinor - afterSale.refundedMinor > 0 && afterSale.withdrawals.every((withdrawal) => withdrawal.state === 'refunded');

/** The order's statuses, the stock its changes took or gave back and its parcel's travel, in the order they happened. */
function timelineOf({ order, stockChanges }: AdminOrderDetail): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...order.statusHistory.map((change) => ({ kind: 'status' as const, status: change.status, at: change.at })),
    ...stockChanges.map((change) => ({ kind: 'stock' as const, change, at: change.at })),
    // Withdrawals and refunds are notes beside the statuses, which they leave as they are.
    ...(order.afterSale?.withdrawals ?? []).map((withdrawal) => ({ kind: 'note' as const, text: 'returns.timeline.withdrawn', at: withdrawal.submittedAt })),
    ...(order.afterSale?.withdrawals ?? []).flatMap((withdrawal) => (withdrawal.receivedAt ? [{ kind: 'note' as const, text: 'returns.timeline.received', at: withdrawal.receivedAt }] : [])),
    ...(order.afterSale?.refunds ?? []).map((refund) => ({ kind: 'note' as const, text: 'returns.timeline.refunded', values: { minor: String(refund.amountMinor) }, at: refund.createdAt })),
    // The parcel's travel as its courier reported it.
    ...(order.delivery.shipment?.events ?? []).map((event) => ({ kind: 'courier' as const, description: event.description, place: event.place, at: event.at })),
  ];
  // A stable sort keeps a status before the stock it moved when both carry the same moment.
  return entries.sort((a, b) => a.at.localeCompare(b.at));
}

interface OrderDetailProps {
  orderId: string;
  /** Where "Back to orders" leads: the list as it was when the order was opened. */
  listHref: string;
  onToast(toast: { message: string; kind: 'success' | 'error' }): void;
}

export function OrderDetail({ orderId, listHref, onToast }: OrderDetailProps) {
  const { t, language } = useTranslation();
  const localize = useLocalize();
  const order = useAdminOrder(orderId);
  const queryClient = useQueryClient();
  const id = useId();
  const [saving, setSaving] = useState(false);
  const [recordingCash, setRecordingCash] = useState(false);
  /** The money the admin is asked to confirm before it is recorded: the courier's cash, or a bank transfer. */
  const [confirming, setConfirming] = useState<'cash' | 'transfer' | null>(null);
  const priceText = usePriceText();
  // The status chosen in the select, applied only by the button: browsing the options with the arrow
  // keys changes nothing and tells the customer nothing. Null follows the order's own status.
  const [chosen, setChosen] = useState<OrderStatus | null>(null);
  const panel = useRef<HTMLDivElement>(null);
  const title = useRef<HTMLHeadingElement>(null);
  const paymentHeading = useRef<HTMLHeadingElement>(null);

  // The link that opened the order is gone; focus moves to the order (its title once it has loaded).
  useEffect(() => {
    panel.current?.focus();
  }, [orderId]);
  const loaded = order.isSuccess;
  useEffect(() => {
    if (loaded && document.activeElement === panel.current) title.current?.focus();
  }, [loaded]);

  const update = async (event: FormEvent) => {
    event.preventDefault();
    if (saving || !chosen || chosen === order.data?.order.status) return;
    setSaving(true);
    try {
      const changed = await changeStatus(orderId, { status: chosen });
      queryClient.setQueryData(queryKeys.adminOrder(orderId), changed);
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders() });
      setChosen(null);
      onToast({ message: t('admin.orders.statusUpdated', { status: t(`orders.status.${changed.order.status}`) }), kind: 'success' });
    } catch (error) {
      // Reopening a cancelled order whose pieces were sold meanwhile: say which, so the owner can raise the count.
      const shortages = error instanceof ApiError && error.code === 'stock_short' ? (error.details.shortages ?? []) : [];
      const message = shortages.length > 0 ? `${errorText(t, error as ApiError)} ${shortages.map((shortage) => shortageText(t, language, shortage)).join(' ')}` : t('admin.orders.statusUpdateError');
      onToast({ message, kind: 'error' });
    } finally {
      setSaving(false);
    }
  };

  const recordMoney = async (kind: 'cash' | 'transfer') => {
    setConfirming(null);
    if (recordingCash) return;
    setRecordingCash(true);
    try {
      const changed = kind === 'cash' ? await recordCashPayment(orderId) : await recordBankTransfer(orderId);
      queryClient.setQueryData(queryKeys.adminOrder(orderId), changed);
      void queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders() });
      // The button is gone with the order paid: the focus goes to the payment it recorded rather than to the page.
      paymentHeading.current?.focus();
      const amount = changed.order.payment?.amountMinor ?? amountDue(changed.order);
      const recorded = kind === 'cash' ? t('admin.orders.cashPaymentRecorded', { amount: priceText(amount, changed.order.currency) }) : t('admin.orders.bankTransferRecorded', { orderId });
      onToast({ message: recorded, kind: 'success' });
    } catch (error) {
      // Paid or cancelled meanwhile (in another window, say): the order as it now is shows which.
      if (error instanceof ApiError && error.code === 'order_not_payable') void order.refetch();
      const reason = error instanceof ApiError && error.code !== 'internal' ? ` ${errorText(t, error)}` : '';
      onToast({ message: `${t('admin.orders.cashPaymentError')}${reason}`, kind: 'error' });
    } finally {
      setRecordingCash(false);
    }
  };

  const selected = chosen ?? order.data?.order.status;
  return (
    <div className="panel" ref={panel} tabIndex={-1}>
      <Link href={listHref} className="button button--small">
        {t('admin.orders.back')}
      </Link>
      {order.isPending ? (
        <LoadingMessage>{t('payment.loading')}</LoadingMessage>
      ) : order.isError ? (
        order.error instanceof ApiError && order.error.status === 404 ? (
          <LoadErrorMessage message={t('payment.orderNotFound')} />
        ) : (
          <LoadErrorMessage message={t('payment.orderLoadError')} onRetry={order.refetch} />
        )
      ) : (
        <>
          <h2 className="panel__title order-detail__title" ref={title} tabIndex={-1}>
            <OrderNumber orderId={orderId} />
          </h2>
          <p>
            {t('admin.orders.customer')}: <strong>{order.data.order.customerEmail}</strong>
          </p>
          {order.data.order.dispatchBy && isToBeSent(order.data.order.status) && (
            <p className="order-detail__ships-by">
              <strong>{t('admin.orders.shipsBy', { date: dayText(order.data.order.dispatchBy, language) })}</strong>
            </p>
          )}
          <form className="order-detail__status" onSubmit={(event) => void update(event)}>
            <div className="field field--inline">
              <label className="field__label" htmlFor={`${id}-status`}>
                {t('admin.orders.changeStatus')}
              </label>
              <select
                id={`${id}-status`}
                className="field__input"
                value={selected}
                aria-describedby={`${id}-current`}
                onChange={(event) => setChosen(orderStatusSchema.safeParse(event.target.value).data ?? null)}
              >
                {ORDER_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {t(`orders.status.${status}`)}
                  </option>
                ))}
              </select>
            </div>
            {/* aria-disabled rather than disabled: a disabled button would drop the keyboard focus to the page. */}
            <button type="submit" className="button button--primary" aria-disabled={saving || selected === order.data.order.status}>
              {saving ? t('admin.orders.updatingStatus') : t('admin.orders.updateStatus')}
            </button>
            <p id={`${id}-current`} className="field__hint">
              {t('admin.orders.currentStatus', { status: t(`orders.status.${order.data.order.status}`) })}
            </p>
          </form>
          <OrderDetails order={order.data.order} shipsBy={false} />
          <OrderShipment order={order.data.order} onToast={onToast} />
          {order.data.order.payment && (
            <OrderDocuments
              order={order.data.order}
              base="/api/admin/orders"
              actions={(documents, update) => <CorrectInvoice order={order.data.order} documents={documents} onCorrected={update} />}
            />
          )}
          {order.data.order.items.some((item) => hasChoices(item.choices ?? EMPTY_CHOICE_SUMMARY)) && (
            <>
              <h3 className="order-details__heading" id={`${id}-choices`}>
                {t('admin.orders.lineChoices')}
              </h3>
              <ol className="order-detail__choices" aria-labelledby={`${id}-choices`}>
                {order.data.order.items.map((item, index) => (
                  <li key={index} className="work-line">
                    <p className="work-line__name">
                      <strong>
                        <Localized text={item.name} />
                      </strong>{' '}
                      × {item.quantity}
                      {item.dispatchBy && <span className="muted"> · {t('admin.orders.lineShipsBy', { date: dayText(item.dispatchBy, language) })}</span>}
                    </p>
                    <LineChoices choices={item.choices ?? EMPTY_CHOICE_SUMMARY} />
                  </li>
                ))}
              </ol>
            </>
          )}
          <h3 className="order-details__heading" ref={paymentHeading} tabIndex={-1}>
            {t('admin.orders.payment')}
          </h3>
          {order.data.order.payment ? (
            <dl className="facts">
              <dt>{t('admin.orders.paymentId')}</dt>
              <dd>{order.data.order.payment.paymentId}</dd>
              <dt>{t('orders.paymentMethod')}</dt>
              <dd>
                {t(`orders.method.${order.data.order.payment.method}`)}
                {order.data.order.payment.cardLast4 && ` (${t('admin.orders.cardLast4', { digits: order.data.order.payment.cardLast4 })})`}
              </dd>
              <dt>{t('admin.orders.amount')}</dt>
              <dd>
                <Price minor={order.data.order.payment.amountMinor} currency={order.data.order.currency} />
              </dd>
              <dt>{t('admin.orders.processedAt')}</dt>
              <dd>{formatDateTime(order.data.order.payment.processedAt, language, t('orders.notAvailable'))}</dd>
              {order.data.order.afterSale && order.data.order.afterSale.refundState !== 'none' && (
                <>
                  <dt>{t(`withdrawalForm.refundState.${order.data.order.afterSale.refundState}`)}</dt>
                  <dd>
                    <Price minor={order.data.order.afterSale.refundedMinor} currency={order.data.order.currency} />
                  </dd>
                </>
              )}
            </dl>
          ) : (
            <p className="muted">{t('admin.orders.notPaid')}</p>
          )}
          {order.data.order.afterSale && refundableWithoutWithdrawal(order.data.order.afterSale) && (
            <section aria-labelledby={`${id}-refund`}>
              <h3 id={`${id}-refund`} className="order-details__heading">
                {t('returns.refundOrderTitle')}
              </h3>
              <p className="field__hint">{t('returns.refundOrderHint')}</p>
              {settings.paymentProvider === 'epay' && order.data.order.payment?.method !== 'cash_on_delivery' && order.data.order.payment?.method !== 'bank_transfer' && (
                <p className="field__hint">{t('admin.orders.epayRefundHint')}</p>
              )}
              <RefundForm
                // A new form with the new default once a refund changes what is left.
                key={order.data.order.afterSale.refundedMinor}
                orderId={orderId}
                defaultMinor={order.data.order.afterSale.paidMinor - order.data.order.afterSale.refundedMinor}
                currency={order.data.order.currency}
                onToast={onToast}
              />
            </section>
          )}
          {paymentStateOf(order.data.order) === 'cashOnDelivery' && (
            <div className="form-actions">
              {/* aria-disabled rather than disabled, as for the status: the keyboard focus stays on the button. */}
              {/* Asked first: it records money, sets the order Delivered and e-mails the customer. */}
              <button type="button" className="button button--primary" aria-disabled={recordingCash} onClick={() => !recordingCash && setConfirming('cash')}>
                {recordingCash ? t('admin.orders.recordingCashPayment') : t('admin.orders.recordCashPayment')}
              </button>
            </div>
          )}
          {paymentStateOf(order.data.order) === 'bankTransfer' && (
            <div className="form-actions">
              {/* Asked first: it records money, sets the order Paid and e-mails the customer. */}
              <button type="button" className="button button--primary" aria-disabled={recordingCash} onClick={() => !recordingCash && setConfirming('transfer')}>
                {recordingCash ? t('admin.orders.recordingBankTransfer') : t('admin.orders.recordBankTransfer')}
              </button>
            </div>
          )}
          {confirming === 'transfer' && (
            <ConfirmDialog
              title={t('admin.orders.confirmBankTransferTitle')}
              message={t('admin.orders.confirmBankTransfer', { amount: priceText(amountDue(order.data.order), order.data.order.currency), orderId })}
              confirmLabel={t('admin.orders.recordBankTransfer')}
              onConfirm={() => void recordMoney('transfer')}
              onCancel={() => setConfirming(null)}
            />
          )}
          {confirming === 'cash' && (
            <ConfirmDialog
              title={t('admin.orders.confirmCashPaymentTitle')}
              message={t('admin.orders.confirmCashPayment', { amount: priceText(amountDue(order.data.order), order.data.order.currency), orderId })}
              confirmLabel={t('admin.orders.recordCashPayment')}
              onConfirm={() => void recordMoney('cash')}
              onCancel={() => setConfirming(null)}
            />
          )}
          <h3 className="order-details__heading" id={`${id}-timeline`}>
            {t('admin.orders.timeline')}
          </h3>
          <ol className="timeline" aria-labelledby={`${id}-timeline`}>
            {timelineOf(order.data).map((entry, index) => (
              <li key={index}>
                {entry.kind === 'status' ? (
                  <strong>{t(`orders.status.${entry.status}`)}</strong>
                ) : entry.kind === 'courier' ? (
                  <span>
                    <Localized text={entry.description} />
                    {entry.place && <span className="muted"> · {entry.place}</span>}
                  </span>
                ) : entry.kind === 'note' ? (
                  <strong>{t(entry.text, entry.values ? { amount: priceText(Number(entry.values.minor), order.data.order.currency) } : undefined)}</strong>
                ) : (
                  <span>
                    {t(`admin.stockChanges.${entry.change.reason}`, { pieces: Math.abs(entry.change.change), name: localize(entry.change.productName), orderId, admin: entry.change.changedBy ?? '' })}
                    {entry.change.stockAfter !== null && <span className="muted"> ({t('admin.stockChanges.after', { stock: entry.change.stockAfter })})</span>}
                  </span>
                )}{' '}
                <time dateTime={entry.at}>{formatDateTime(entry.at, language, t('orders.notAvailable'))}</time>
              </li>
            ))}
          </ol>
          <PaymentNotices notices={order.data.paymentNotices} currency={order.data.order.currency} />
          <OrderMails orderId={orderId} mails={order.data.mails} onToast={onToast} />
        </>
      )}
    </div>
  );
}
