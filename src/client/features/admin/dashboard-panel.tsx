import { useCallback, useId, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { changePercent, type BestSeller, type Dashboard, type SalesComparison, type StockAlert } from '#shared/dashboard.js';
import type { StockFilter } from '#shared/stock.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';
import { Price } from '#client/ui/price.js';
import { dayText } from '#shared/orders.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import type { OrderFilter } from './admin-api.js';
import { adminHref } from './admin-location.js';
import { SalesChart } from './sales-chart.js';

const NO_FILTER: OrderFilter = { status: '', search: '', after: '', before: '' };


type Range = { from: string; to: string } | null;

/** The admin's first tab: how the shop sells, what sells, what runs out and what is still to make. */
export default function DashboardPanel() {
  const { t } = useTranslation();
  const [range, setRange] = useState<Range>(null);
  const board = useQuery({
    queryKey: queryKeys.adminDashboard(range?.from ?? '', range?.to ?? ''),
    queryFn: () => requestJson<Dashboard>(`/api/admin/dashboard${range ? `?${new URLSearchParams(range)}` : ''}`),
    placeholderData: (previous) => previous,
    staleTime: 0,
  });
  if (board.isPending) return <LoadingMessage>{t('admin.dashboard.loading')}</LoadingMessage>;
  if (board.isError && !board.data) return <LoadErrorMessage message={errorText(t, board.error)} onRetry={board.refetch} />;
  const data = board.data!;
  return (
    <div className="dashboard">
      <section className="dashboard__periods" aria-label={t('admin.dashboard.salesTitle')}>
        <PeriodCard title={t('admin.dashboard.today')} sales={data.today} />
        <PeriodCard title={t('admin.dashboard.last7')} sales={data.last7} />
        <PeriodCard title={t('admin.dashboard.last30')} sales={data.last30} />
      </section>
      <RangeSales board={data} onRange={setRange} failure={board.isError ? errorText(t, board.error) : null} />
      <div className="dashboard__grid">
        <SellerList title={t('admin.dashboard.bestByPieces')} sellers={data.bestSellers.byPieces} show="pieces" />
        <SellerList title={t('admin.dashboard.bestByRevenue')} sellers={data.bestSellers.byRevenue} show="revenue" />
        <StockList title={t('admin.dashboard.lowStock')} alerts={data.lowStock} filter="low" />
        <StockList title={t('admin.dashboard.soldOut')} alerts={data.soldOut} filter="soldOut" />
        <OpenOrders board={data} />
        <WorkDue work={data.work} />
      </div>
    </div>
  );
}

/** "+12%" or "−5%" against the period before, or "new" when it had nothing. */
function Change({ current, previous }: { current: number; previous: number }) {
  const { t } = useTranslation();
  const change = changePercent(current, previous);
  const text = change === null ? (current > 0 ? t('admin.dashboard.new') : '') : `${change > 0 ? '+' : change < 0 ? '−' : '±'}${Math.abs(change)}%`;
  if (!text) return null;
  return <span className={`dashboard__change dashboard__change--${change === null || change >= 0 ? 'up' : 'down'}`}>{text}</span>;
}

function PeriodCard({ title, sales }: { title: string; sales: SalesComparison }) {
  const { t } = useTranslation();
  const { current, previous } = sales;
  return (
    <article className="dashboard__card" aria-label={title}>
      <h2 className="dashboard__card-title">{title}</h2>
      <dl className="dashboard__figures">
        <div>
          <dt>{t('admin.dashboard.revenue')}</dt>
          <dd>
            <Price minor={current.revenueMinor} /> <Change current={current.revenueMinor} previous={previous.revenueMinor} />
          </dd>
        </div>
        <div>
          <dt>{t('admin.dashboard.orders')}</dt>
          <dd>
            {current.orders} <Change current={current.orders} previous={previous.orders} />
          </dd>
        </div>
        <div>
          <dt>{t('admin.dashboard.average')}</dt>
          <dd>
            <Price minor={current.averageMinor} />
          </dd>
        </div>
      </dl>
      <p className="muted dashboard__before">
        {t('admin.dashboard.before')} <Price minor={previous.revenueMinor} /> · {t('admin.dashboard.orderCount', { count: previous.orders })}
      </p>
    </article>
  );
}

/** The chosen range's sales, chart and table, and the form that chooses it. */
function RangeSales({ board, onRange, failure }: { board: Dashboard; onRange: (range: Range) => void; failure: string | null }) {
  const { t, language } = useTranslation();
  const ids = useId();
  const [from, setFrom] = useState(board.range.from);
  const [to, setTo] = useState(board.range.to);
  // The axes' labels are short: whole units (the currency is in the heading) and the day without its weekday.
  const locale = language === 'bg' ? 'bg-BG' : 'en-GB';
  const formatAmount = useCallback((minor: number) => new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(minor / 100), [locale]);
  const formatDay = useCallback((isoDate: string) => new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(new Date(`${isoDate}T12:00:00Z`)), [locale]);
  const { points, unit } = board.chart;
  return (
    <section className="dashboard__range panel" aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`} className="panel__title">
        {t('admin.dashboard.rangeTitle', { from: dayText(board.range.from, language), to: dayText(board.range.to, language) })}
      </h2>
      <form
        className="toolbar"
        onSubmit={(event) => {
          event.preventDefault();
          onRange(from && to ? { from, to } : null);
        }}
      >
        <div className="field field--inline">
          <label className="field__label" htmlFor={`${ids}-from`}>
            {t('admin.dashboard.from')}
          </label>
          <input id={`${ids}-from`} className="field__input" type="date" value={from} max={to} onChange={(event) => setFrom(event.target.value)} />
        </div>
        <div className="field field--inline">
          <label className="field__label" htmlFor={`${ids}-to`}>
            {t('admin.dashboard.to')}
          </label>
          <input id={`${ids}-to`} className="field__input" type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} />
        </div>
        <button type="submit" className="button">
          {t('admin.dashboard.show')}
        </button>
      </form>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <PeriodCard title={t('admin.dashboard.rangeCard')} sales={board.range} />
      <h3 className="dashboard__chart-title">
        {t(unit === 'week' ? 'admin.dashboard.perWeek' : 'admin.dashboard.perDay')} ({board.currency === 'EUR' ? '€' : t('admin.dashboard.leva')})
      </h3>
      <SalesChart points={points} formatAmount={formatAmount} formatDay={formatDay} />
      <details className="dashboard__table">
        <summary>{t('admin.dashboard.asTable')}</summary>
        <div className="table-scroll">
          <table>
            <caption className="visually-hidden">{t(unit === 'week' ? 'admin.dashboard.perWeek' : 'admin.dashboard.perDay')}</caption>
            <thead>
              <tr>
                <th scope="col">{t(unit === 'week' ? 'admin.dashboard.weekOf' : 'admin.dashboard.day')}</th>
                <th scope="col">{t('admin.dashboard.orders')}</th>
                <th scope="col">{t('admin.dashboard.revenue')}</th>
              </tr>
            </thead>
            <tbody>
              {points.map((point) => (
                <tr key={point.start}>
                  <th scope="row">{dayText(point.start, language)}</th>
                  <td>{point.orders}</td>
                  <td>
                    <Price minor={point.revenueMinor} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

/** A list entry: what it names, and its figure on the right, level with the name's first line however it wraps. */
function Entry({ value, children }: { value: ReactNode; children: ReactNode }) {
  return (
    <span className="dashboard__entry">
      {children} <span className="dashboard__value">{value}</span>
    </span>
  );
}

function SellerList({ title, sellers, show }: { title: string; sellers: BestSeller[]; show: 'pieces' | 'revenue' }) {
  const { t } = useTranslation();
  return (
    <section className="dashboard__list panel" aria-label={title}>
      <h2 className="panel__title">{title}</h2>
      {sellers.length === 0 ? (
        <p className="muted">{t('admin.dashboard.noSales')}</p>
      ) : (
        <ol>
          {sellers.map((seller) => (
            <li key={seller.productId ?? seller.name.en}>
              <Entry value={show === 'pieces' ? t('admin.dashboard.pieces', { count: seller.pieces }) : <Price minor={seller.revenueMinor} />}>
                <Localized text={seller.name} />
              </Entry>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function StockList({ title, alerts, filter }: { title: string; alerts: StockAlert[]; filter: StockFilter }) {
  const { t } = useTranslation();
  return (
    <section className="dashboard__list panel" aria-label={title}>
      <h2 className="panel__title">{title}</h2>
      {alerts.length === 0 ? (
        <p className="muted">{t('admin.dashboard.noAlerts')}</p>
      ) : (
        <ul>
          {alerts.map((alert) => (
            <li key={alert.productId}>
              <Entry value={t('admin.dashboard.left', { count: alert.stock })}>
                <Localized text={alert.name} />
              </Entry>
            </li>
          ))}
        </ul>
      )}
      <Link href={adminHref({ tab: 'products', filter: NO_FILTER, orderId: null, stock: filter })} className="dashboard__more">
        {t('admin.dashboard.toProducts')}
      </Link>
    </section>
  );
}

function OpenOrders({ board }: { board: Dashboard }) {
  const { t } = useTranslation();
  const title = t('admin.dashboard.openOrders');
  return (
    <section className="dashboard__list panel" aria-label={title}>
      <h2 className="panel__title">{title}</h2>
      <ul>
        {board.openOrders.map((entry) => (
          <li key={entry.status}>
            <Entry value={entry.count}>
              <Link href={adminHref({ tab: 'orders', filter: { ...NO_FILTER, status: entry.status }, orderId: null, stock: '' })}>{t(`orders.status.${entry.status}`)}</Link>
            </Entry>
          </li>
        ))}
      </ul>
    </section>
  );
}

function WorkDue({ work }: { work: Dashboard['work'] }) {
  const { t, language } = useTranslation();
  const title = t('admin.dashboard.workTitle');
  return (
    <section className="dashboard__list panel" aria-label={title}>
      <h2 className="panel__title">{title}</h2>
      <p>{t('admin.dashboard.workLines', { count: work.lines, pieces: work.pieces })}</p>
      {work.overdue > 0 && <p className="form-error">{t('admin.dashboard.workOverdue', { count: work.overdue })}</p>}
      {work.nextDue && <p>{t('admin.dashboard.workNext', { date: dayText(work.nextDue, language) })}</p>}
      <Link href={adminHref({ tab: 'workList', filter: NO_FILTER, orderId: null, stock: '' })} className="dashboard__more">
        {t('admin.dashboard.toWorkList')}
      </Link>
    </section>
  );
}
