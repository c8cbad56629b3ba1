import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Link } from 'wouter';
import { pickText } from '#shared/catalog.js';
import { REVIEW_REPLY_MAX_LENGTH, REVIEW_STATUSES, type AdminReview, type AdminReviewList, type ReviewModeration, type ReviewStatus } from '#shared/reviews.js';
import { productPath } from '#shared/routes.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { ReviewPhotos } from '#client/ui/review-photos.js';
import { Stars } from '#client/ui/stars.js';
import { OrderNumber } from '#client/orders/order-number.js';
import { adminHref } from './admin-location.js';

const key = 'admin.reviews.';
type Toast = { message: string; kind: 'success' | 'error' };

/** Buyers' reviews, by status (waiting first): the admin approves, hides or answers each. */
export default function ReviewsPanel({ onToast }: { onToast(toast: Toast): void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<ReviewStatus>('pending');
  const reviews = useQuery({ queryKey: queryKeys.adminReviews(status), queryFn: () => requestJson<AdminReviewList>(`/api/admin/reviews?status=${status}`), staleTime: 0 });

  return (
    <section className="admin-reviews" aria-labelledby="admin-reviews-title">
      <h2 id="admin-reviews-title" className="section-title">
        {t(`${key}title`)}
      </h2>
      <p className="field__hint">{t(`${key}intro`)}</p>
      <div className="admin-reviews__filter" role="group" aria-label={t(`${key}filter`)}>
        {REVIEW_STATUSES.map((option) => (
          <button key={option} type="button" className="chip" aria-pressed={status === option} onClick={() => setStatus(option)}>
            {t(`${key}statuses.${option}`)}
          </button>
        ))}
      </div>
      {reviews.isPending ? (
        <LoadingMessage>{t(`${key}loading`)}</LoadingMessage>
      ) : reviews.isError ? (
        <LoadErrorMessage message={t(`${key}loadError`)} onRetry={reviews.refetch} />
      ) : reviews.data.reviews.length === 0 ? (
        <p className="state-message">{t(`${key}empty.${status}`)}</p>
      ) : (
        <ul className="admin-reviews__list">
          {reviews.data.reviews.map((review) => (
            <ReviewItem key={review.id} review={review} onToast={onToast} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ReviewItem({ review, onToast }: { review: AdminReview; onToast(toast: Toast): void }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const id = useId();
  const [reply, setReply] = useState(review.reply ?? '');
  const [saving, setSaving] = useState(false);
  const productName = pickText(review.productName, language).text;

  const save = async (change: ReviewModeration, done: string) => {
    setSaving(true);
    try {
      await requestJson(`/api/admin/reviews/${review.id}`, { method: 'PATCH', body: JSON.stringify(change) });
      onToast({ message: t(done), kind: 'success' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.adminReviewLists() });
    } catch (failure) {
      onToast({ message: errorText(t, failure), kind: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <li className="admin-reviews__item" aria-labelledby={`${id}-product`}>
      <h3 id={`${id}-product`} className="admin-reviews__product">
        <Link href={productPath(review.productSlug)}>{productName}</Link>
      </h3>
      <p className="review__head">
        <Stars rating={review.rating} /> <span lang={review.language}>{review.name}</span> <span className="muted">{formatDateTime(review.createdAt, language, '')}</span>{' '}
        <Link href={adminHref({ tab: 'orders', filter: { status: '', search: '', after: '', before: '' }, orderId: review.orderId, stock: '' })}>
          <OrderNumber orderId={review.orderId} />
        </Link>
      </p>
      <p className="review__text" lang={review.language}>
        {review.text}
      </p>
      <ReviewPhotos review={review} />
      <div className="field">
        <label className="field__label" htmlFor={`${id}-reply`}>
          {t(`${key}reply`)}
        </label>
        <textarea id={`${id}-reply`} className="field__input" rows={2} maxLength={REVIEW_REPLY_MAX_LENGTH} value={reply} onChange={(event) => setReply(event.target.value)} />
      </div>
      <div className="admin-reviews__actions">
        {review.status !== 'approved' && (
          <button type="button" className="button button--primary" disabled={saving} onClick={() => void save({ status: 'approved', reply }, `${key}approved`)}>
            {t(`${key}approve`)}
          </button>
        )}
        {review.status !== 'hidden' && (
          <button type="button" className="button" disabled={saving} onClick={() => void save({ status: 'hidden', reply }, `${key}hidden`)}>
            {t(`${key}hide`)}
          </button>
        )}
        <button type="button" className="button" disabled={saving || reply === (review.reply ?? '')} onClick={() => void save({ reply }, `${key}replySaved`)}>
          {t(`${key}saveReply`)}
        </button>
      </div>
    </li>
  );
}
