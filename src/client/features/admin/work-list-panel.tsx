import { useId } from 'react';
import { Link } from 'wouter';
import { dayText } from '#shared/orders.js';
import { adminOrderPath } from '#shared/routes.js';
import { WORK_LIST_STATUSES, type WorkListLine } from '#shared/work-list.js';
import { latestDate } from '#shared/working-days.js';
import { sofiaDate } from '#shared/sofia-time.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { OrderNumber } from '#client/orders/order-number.js';
import { useWorkList, type WorkListStatus } from './admin-api.js';
import { LineChoices } from './line-choices.js';

/** One order of the work list with its lines still to make, in the order the server sorted them. */
export interface WorkListOrder {
  orderId: string;
  orderStatus: WorkListLine['orderStatus'];
  orderedAt: string;
  customerEmail: string;
  shippingFullName: string;
  /** The latest of its lines' dates: the order ships when all of it is made. */
  dispatchBy: string | null;
  lines: WorkListLine[];
}

/** Lines grouped by their order, each order where its first (soonest due) line is; lines in their order's positions. */
export function groupByOrder(lines: readonly WorkListLine[]): WorkListOrder[] {
  const orders = new Map<string, WorkListOrder>();
  for (const line of lines) {
    let order = orders.get(line.orderId);
    if (!order) {
      order = { ...line, dispatchBy: null, lines: [] };
      orders.set(line.orderId, order);
    }
    order.lines.push(line);
  }
  return [...orders.values()].map((order) => ({
    ...order,
    dispatchBy: latestDate(order.lines.flatMap((line) => (line.dispatchBy ? [line.dispatchBy] : []))),
    lines: [...order.lines].sort((a, b) => a.position - b.position),
  }));
}

/** Whether a ships-by date has passed, as Sofia counts days. */
export const isOverdue = (dispatchBy: string | null, today: string) => dispatchBy !== null && dispatchBy < today;

interface WorkListPanelProps {
  status: WorkListStatus | '';
  onStatus(status: WorkListStatus | ''): void;
}

/**
 * The maker's work list: what is to be made, order by order, the soonest due first, with each line's
 * options, ten sizes and notes. It prints one order to an A4 page (see the print rules in styles.css).
 */
export default function WorkListPanel({ status, onStatus }: WorkListPanelProps) {
  const { t, language } = useTranslation();
  const id = useId();
  const list = useWorkList(status);
  const today = sofiaDate(new Date());
  const orders = list.data ? groupByOrder(list.data) : [];

  return (
    <div className="work-list">
      <h2 className="visually-hidden">{t('admin.workList.title')}</h2>
      <p className="work-list__intro muted">{t('admin.workList.intro')}</p>
      <div className="toolbar work-list__toolbar">
        <div className="field field--inline">
          <label className="field__label" htmlFor={`${id}-status`}>
            {t('admin.workList.statusFilter')}
          </label>
          <select
            id={`${id}-status`}
            className="field__input"
            value={status}
            onChange={(event) => onStatus(WORK_LIST_STATUSES.find((candidate) => candidate === event.target.value) ?? '')}
          >
            <option value="">{t('admin.workList.allStatuses')}</option>
            {WORK_LIST_STATUSES.map((candidate) => (
              <option key={candidate} value={candidate}>
                {t(`orders.status.${candidate}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="button" onClick={() => void list.refetch()}>
          {t('admin.workList.refresh')}
        </button>
        <button type="button" className="button button--primary" onClick={() => window.print()} aria-describedby={`${id}-print-hint`} disabled={orders.length === 0}>
          {t('admin.workList.print')}
        </button>
        <p id={`${id}-print-hint`} className="field__hint work-list__print-hint">
          {t('admin.workList.printHint')}
        </p>
      </div>
      {list.isPending ? (
        <LoadingMessage>{t('admin.workList.loading')}</LoadingMessage>
      ) : list.isError ? (
        <LoadErrorMessage message={t('admin.workList.loadError')} onRetry={list.refetch} />
      ) : orders.length === 0 ? (
        <p className="state-message">{t('admin.workList.empty')}</p>
      ) : (
        <>
          <p className="work-list__count muted" role="status">
            {t('admin.workList.count', { count: orders.length, lines: list.data.length })}
          </p>
          <ol className="work-list__orders">
            {orders.map((order) => {
              const overdue = isOverdue(order.dispatchBy, today);
              return (
                <li key={order.orderId} className={`work-order${overdue ? ' work-order--overdue' : ''}`}>
                  <article aria-labelledby={`${id}-${order.orderId}`}>
                    <header className="work-order__header">
                      <h3 id={`${id}-${order.orderId}`} className="work-order__title">
                        <Link href={adminOrderPath(order.orderId)}>
                          <OrderNumber orderId={order.orderId} />
                        </Link>{' '}
                        <span className={`status status--${order.orderStatus}`}>{t(`orders.status.${order.orderStatus}`)}</span>
                      </h3>
                      <dl className="work-order__facts">
                        <div>
                          <dt>{t('admin.workList.shipsBy')}</dt>{' '}
                          <dd className="work-order__due">
                            {order.dispatchBy ? <time dateTime={order.dispatchBy}>{dayText(order.dispatchBy, language)}</time> : t('admin.workList.noDate')}
                            {overdue && <strong className="work-order__overdue"> {t('admin.workList.overdue')}</strong>}
                            {order.dispatchBy === today && <strong className="work-order__today"> {t('admin.workList.dueToday')}</strong>}
                          </dd>
                        </div>
                        <div>
                          <dt>{t('admin.workList.customer')}</dt>{' '}
                          <dd>
                            {order.shippingFullName}
                            <span className="work-order__email"> {order.customerEmail}</span>
                          </dd>
                        </div>
                        <div>
                          <dt>{t('admin.workList.orderedAt')}</dt>{' '}
                          <dd>
                            <time dateTime={order.orderedAt}>{formatDateTime(order.orderedAt, language, t('orders.notAvailable'))}</time>
                          </dd>
                        </div>
                      </dl>
                    </header>
                    <ol className="work-order__lines">
                      {order.lines.map((line) => (
                        <li key={line.position} className="work-line">
                          <p className="work-line__name">
                            <strong>
                              <Localized text={line.name} />
                            </strong>{' '}
                            <span className="work-line__quantity">
                              {t('admin.workList.quantity')}: <strong>{line.quantity}</strong>
                            </span>
                            {line.dispatchBy && line.dispatchBy !== order.dispatchBy && <span className="muted"> · {t('admin.orders.lineShipsBy', { date: dayText(line.dispatchBy, language) })}</span>}
                          </p>
                          <LineChoices choices={line.choices} />
                        </li>
                      ))}
                    </ol>
                  </article>
                </li>
              );
            })}
          </ol>
        </>
      )}
    </div>
  );
}
