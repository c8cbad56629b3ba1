import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ORDER_SEARCH_MAX_LENGTH, orderSearchSchema, orderStatusSchema } from '#shared/admin-order-schemas.js';
import { ORDER_STATUSES } from '#shared/order-status.js';
import { errorText } from '#client/api/error-text.js';
import { ApiError } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { OrderStatusBadge } from '#client/orders/order-details.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { Price } from '#client/ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { Toast } from '#client/ui/toast.js';
import { useAdminOrders, type OrderFilter } from './admin-api.js';
import { adminHref, useAdminView } from './admin-location.js';
import { MonthlyFiles } from './monthly-files.js';
import { OrdersExport } from './orders-export.js';
import { OrderDetail } from './order-detail.js';

export function OrdersPanel() {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const id = useId();
  const [view, setView] = useAdminView();
  const { filter, orderId: openOrderId } = view;
  const setFilter = (next: OrderFilter, options?: { replace?: boolean }) => setView({ ...view, filter: next }, options);
  const [searchText, setSearchText] = useState(filter.search);
  // Back and Forward change the search in the address; the field follows it.
  const [searchShown, setSearchShown] = useState(filter.search);
  if (searchShown !== filter.search) {
    setSearchShown(filter.search);
    setSearchText(filter.search);
  }
  const [searchInvalid, setSearchInvalid] = useState(false);
  const [toast, setToast] = useState<{ message: string; kind: 'success' | 'error' } | null>(null);
  const orders = useAdminOrders(filter);
  const hideToast = useCallback(() => setToast(null), []);
  const returnFocusTo = useReturnFocus(openOrderId, orders.isSuccess);

  const search = (event: FormEvent) => {
    event.preventDefault();
    const checked = orderSearchSchema.safeParse(searchText);
    setSearchInvalid(!checked.success);
    if (checked.success) setFilter({ ...filter, search: checked.data, after: '', before: '' });
  };

  return (
    <>
      {openOrderId ? (
        <OrderDetail orderId={openOrderId} listHref={adminHref({ ...view, orderId: null })} onToast={setToast} />
      ) : (
        <>
          <form className="toolbar" onSubmit={search} role="search">
            <div className="field field--inline">
              <label className="field__label" htmlFor={`${id}-status`}>
                {t('admin.orders.statusFilter')}
              </label>
              <select
                id={`${id}-status`}
                className="field__input"
                value={filter.status}
                // In place of the current entry: a select changes with every arrow key, and Back should not step through them.
                onChange={(event) => setFilter({ ...filter, status: orderStatusSchema.safeParse(event.target.value).data ?? '', after: '', before: '' }, { replace: true })}
              >
                <option value="">{t('admin.orders.allStatuses')}</option>
                {ORDER_STATUSES.map((status) => (
                  <option key={status} value={status}>
                    {t(`orders.status.${status}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field field--inline field--grow">
              <label className="field__label" htmlFor={`${id}-search`}>
                {t('admin.orders.search')}
              </label>
              <input
                id={`${id}-search`}
                className="field__input"
                type="search"
                value={searchText}
                placeholder={t('admin.orders.searchPlaceholder')}
                maxLength={ORDER_SEARCH_MAX_LENGTH}
                aria-invalid={searchInvalid || undefined}
                aria-describedby={searchInvalid ? `${id}-search-error` : undefined}
                onChange={(event) => setSearchText(event.target.value)}
              />
            </div>
            <button type="submit" className="button">
              {t('admin.orders.searchButton')}
            </button>
            <button type="button" className="button" onClick={() => void queryClient.invalidateQueries({ queryKey: queryKeys.adminOrders() })}>
              {t('admin.orders.refresh')}
            </button>
          </form>
          {searchInvalid && (
            <p id={`${id}-search-error`} className="form-error" role="alert">
              {t('admin.orders.searchInvalid')}
            </p>
          )}
          {orders.isPending ? (
            <LoadingMessage>{t('admin.orders.loading')}</LoadingMessage>
          ) : orders.isError && orders.error instanceof ApiError && orders.error.code === 'invalid_cursor' ? (
            // A position in the list from an old or edited address: the way on is the first page.
            <LoadErrorMessage message={errorText(t, orders.error)} onRetry={() => setFilter({ ...filter, after: '', before: '' }, { replace: true })} />
          ) : orders.isError && orders.error instanceof ApiError && orders.error.status === 400 ? (
            // The status comes from a list the server knows; only a search it cannot take is refused.
            <LoadErrorMessage message={t('admin.orders.searchInvalid')} />
          ) : orders.isError ? (
            <LoadErrorMessage message={t('admin.orders.loadError')} onRetry={orders.refetch} />
          ) : orders.data.orders.length === 0 ? (
            <p className="state-message">{t('admin.orders.empty')}</p>
          ) : (
            <>
              <p className="muted" aria-live="polite">
                {t(orders.data.totalIsLowerBound ? 'admin.orders.countAtLeast' : 'admin.orders.count', { count: orders.data.total })}
              </p>
              <div className="table-wrap">
                <table className="table table--orders">
                  <thead>
                    <tr>
                      <th scope="col">{t('admin.orders.columns.order')}</th>
                      <th scope="col">{t('admin.orders.columns.customer')}</th>
                      <th scope="col">{t('admin.orders.columns.date')}</th>
                      <th scope="col">{t('admin.orders.columns.status')}</th>
                      <th scope="col">{t('admin.orders.columns.total')}</th>
                      <th scope="col">
                        <span className="visually-hidden">{t('admin.orders.details')}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {orders.data.orders.map((order) => (
                      <tr key={order.orderId}>
                        <th scope="row" className="table__name">{order.orderId}</th>
                        <td className="table__customer">{order.customerEmail}</td>
                        <td className="table__date">{formatDateTime(order.createdAt, language, t('orders.notAvailable'))}</td>
                        <td className="table__status">
                          <OrderStatusBadge status={order.status} paymentMethod={order.paymentMethod} />
                        </td>
                        <td className="table__price">
                          <Price minor={order.totalMinor} currency={order.currency} />
                        </td>
                        <td className="table__actions">
                          <Link
                            href={adminHref({ ...view, orderId: order.orderId })}
                            ref={returnFocusTo(order.orderId)}
                            className="button button--small"
                            aria-label={`${t('admin.orders.details')}: ${order.orderId}`}
                          >
                            {t('admin.orders.details')}
                          </Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <nav className="pager" aria-label={t('admin.orders.pages')}>
                <button
                  type="button"
                  className="button button--small"
                  disabled={!orders.data.previousCursor}
                  onClick={() => setFilter({ ...filter, after: '', before: orders.data.previousCursor ?? '' })}
                >
                  {t('admin.orders.previous')}
                </button>
                <button
                  type="button"
                  className="button button--small"
                  disabled={!orders.data.nextCursor}
                  onClick={() => setFilter({ ...filter, after: orders.data.nextCursor ?? '', before: '' })}
                >
                  {t('admin.orders.next')}
                </button>
              </nav>
            </>
          )}
          <MonthlyFiles />
          <OrdersExport />
        </>
      )}
      {toast && <Toast message={toast.message} kind={toast.kind} onDone={hideToast} />}
    </>
  );
}

/**
 * Back from an order (its link, or the browser's Back), focus returns to that order's Details link in
 * the list, so that a keyboard user goes on from where they were. Gives the ref for each link.
 */
function useReturnFocus(openOrderId: string | null, listShown: boolean) {
  const links = useRef(new Map<string, HTMLAnchorElement>());
  const lastOpened = useRef<string | null>(null);
  useEffect(() => {
    if (openOrderId) lastOpened.current = openOrderId;
    else if (lastOpened.current && listShown) {
      links.current.get(lastOpened.current)?.focus();
      lastOpened.current = null;
    }
  }, [openOrderId, listShown]);
  return (orderId: string) => (link: HTMLAnchorElement | null) => {
    if (link) links.current.set(orderId, link);
    else links.current.delete(orderId);
  };
}
