import { useTranslation } from '#client/i18n/i18n.js';

/** A rating as five stars, filled to the nearest half; read out as "4.5 out of 5 stars". */
export function Stars({ rating }: { rating: number }) {
  const { t, language } = useTranslation();
  const filled = Math.round(rating * 2) / 2;
  return (
    <span className="stars" role="img" aria-label={t('reviews.stars', { rating: rating.toLocaleString(language === 'bg' ? 'bg-BG' : 'en-GB') })}>
      {[1, 2, 3, 4, 5].map((star) => (
        <span key={star} className={star <= filled ? 'stars__star stars__star--full' : star - 0.5 === filled ? 'stars__star stars__star--half' : 'stars__star'} aria-hidden="true">
          {star <= filled || star - 0.5 === filled ? '★' : '☆'}
        </span>
      ))}
    </span>
  );
}
