import { useInfiniteQuery } from '@tanstack/react-query';
import type { ReviewPage } from '#shared/reviews.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatSofiaDate } from '#client/ui/format-date.js';
import { ReviewPhotos } from '#client/ui/review-photos.js';
import { Stars } from '#client/ui/stars.js';

/** A product's approved reviews, newest first, page by page ("Show more"), with its rating. */
export function useProductReviews(productId: string | undefined) {
  return useInfiniteQuery({
    queryKey: queryKeys.productReviews(productId ?? ''),
    queryFn: ({ pageParam }) => requestJson<ReviewPage>(`/api/products/${productId}/reviews${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: Boolean(productId),
  });
}

/** The product page's reviews: the average and count, then each review in the language it was written in, with the shop's answer. */
export function ProductReviews({ productId }: { productId: string }) {
  const { t, language } = useTranslation();
  const reviews = useProductReviews(productId);
  const pages = reviews.data?.pages;
  // Reviews are a part of the page, not the page: while they load, or if they cannot, the rest stands.
  if (!pages?.[0]) return null;
  const { summary } = pages[0];
  const shown = pages.flatMap((page) => page.reviews);

  return (
    <section className="reviews" aria-labelledby="reviews-title">
      <h2 id="reviews-title" className="section-title">
        {t('reviews.title')}
      </h2>
      {summary.count === 0 ? (
        <p className="muted">{t('reviews.none')}</p>
      ) : (
        <p className="reviews__summary">
          <Stars rating={summary.average} /> {t('reviews.summary', { average: summary.average.toLocaleString(language === 'bg' ? 'bg-BG' : 'en-GB'), count: summary.count })}
        </p>
      )}
      {shown.length > 0 && (
        <ol className="reviews__list">
          {shown.map((review) => (
            <li key={review.id} className="review">
              <p className="review__head">
                <Stars rating={review.rating} /> <span className="review__name" lang={review.language}>{review.name}</span>{' '}
                <span className="muted">{formatSofiaDate(review.createdAt, language)}</span>
              </p>
              <p className="review__text" lang={review.language}>
                {review.text}
              </p>
              <ReviewPhotos review={review} />
              {review.reply && (
                <div className="review__reply">
                  <p className="review__reply-title">{t('reviews.reply')}</p>
                  <p className="review__text">{review.reply}</p>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
      {reviews.hasNextPage && (
        <button type="button" className="button" disabled={reviews.isFetchingNextPage} onClick={() => void reviews.fetchNextPage()}>
          {reviews.isFetchingNextPage ? t('reviews.loadingMore') : t('reviews.showMore')}
        </button>
      )}
    </section>
  );
}
