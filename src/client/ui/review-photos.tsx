import type { Review } from '#shared/reviews.js';
import { useTranslation } from '#client/i18n/i18n.js';

/** A review's photos as small squares, each opening the photo itself. */
export function ReviewPhotos({ review }: { review: Pick<Review, 'name' | 'photos'> }) {
  const { t } = useTranslation();
  if (review.photos.length === 0) return null;
  return (
    <ul className="review__photos" aria-label={t('reviews.photosOf', { name: review.name })}>
      {review.photos.map((photo, index) => (
        <li key={photo.url}>
          <a href={photo.url} target="_blank" rel="noopener">
            <img src={`${photo.url}?w=320`} width={96} height={96} loading="lazy" decoding="async" alt={t('reviews.photoAlt', { number: index + 1, name: review.name })} />
          </a>
        </li>
      ))}
    </ul>
  );
}
