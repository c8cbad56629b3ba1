import { useTranslation } from '#client/i18n/i18n.js';
import { useFavourites } from './favourites.js';

/** The heart of a product: a toggle button, pressed while the product is a favourite. */
export function FavouriteButton({ productId, productName, className = '' }: { productId: string; productName: string; className?: string }) {
  const { t } = useTranslation();
  const { isFavourite, setFavourite } = useFavourites();
  const favourite = isFavourite(productId);
  return (
    <button
      type="button"
      className={`favourite-button ${className}`.trim()}
      aria-pressed={favourite}
      aria-label={t('favourites.toggle', { productName })}
      title={t(favourite ? 'favourites.remove' : 'favourites.add')}
      onClick={() => setFavourite(productId, !favourite)}
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.4 7.9 3.6 4.5 7 4.5c2 0 3.6 1.1 5 3 1.4-1.9 3-3 5-3 3.4 0 5.6 3.4 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />
      </svg>
    </button>
  );
}
