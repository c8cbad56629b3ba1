import { Link } from 'wouter';
import { coverUrl, photoSrcSet, type Product } from '#shared/catalog.js';
import { productPath } from '#shared/routes.js';
import { stockLevel } from '#shared/stock.js';
import { FavouriteButton } from '#client/favourites/favourite-button.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized, useLocalize } from '#client/i18n/localized.js';
import { Price } from '#client/ui/price.js';

interface ProductCardProps {
  product: Product;
  adding: boolean;
  /** The first cards are above the fold on most screens and load at once. */
  eager: boolean;
  onAddToCart(product: Product): void;
}

export function ProductCard({ product, adding, eager, onAddToCart }: ProductCardProps) {
  const { t } = useTranslation();
  const localize = useLocalize();
  const level = stockLevel(product.stock);
  const soldOut = level === 'soldOut';
  const cover = coverUrl(product);
  const name = localize(product.name);
  return (
    <article className="product-card" aria-labelledby={`product-${product.id}`}>
      <div className="product-card__image">
        {cover && (
          <img
            src={`${cover}?w=640`}
            srcSet={photoSrcSet(cover)}
            sizes="(min-width: 1200px) 280px, (min-width: 900px) 30vw, (min-width: 600px) 45vw, 6.5rem"
            width={640}
            height={640}
            alt={localize(product.photos[0]!.alt) || name}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            fetchPriority={eager ? 'high' : 'auto'}
          />
        )}
        <FavouriteButton productId={product.id} productName={name} className="product-card__favourite" />
      </div>
      <div className="product-card__body">
        {product.category && <p className="product-card__category">{t(`products.categories.${product.category}`)}</p>}
        <h3 id={`product-${product.id}`} className="product-card__name">
          {/* The whole card is the link's target (a stretched link), the name its text. */}
          <Link href={productPath(product.slug)} className="product-card__link">
            <Localized text={product.name} />
          </Link>
        </h3>
        <p className="product-card__description">
          <Localized text={product.description} />
        </p>
        {(level === 'low' || soldOut) && (
          <p className={`product-card__stock${soldOut ? ' product-card__stock--out' : ''}`}>
            {soldOut ? t('products.stock.soldOut') : t('products.stock.low', { count: product.stock! })}
          </p>
        )}
        <div className="product-card__footer">
          <Price minor={product.priceMinor} />
          {product.optionGroups.length || product.sized || product.questions.length ? (
            // Made for its buyer: chosen on its page, never added as it is.
            <Link href={productPath(product.slug)} className="button product-card__choose" aria-label={`${t('products.choose')}: ${name}`}>
              {t('products.choose')}
            </Link>
          ) : (
            <button
              type="button"
              className="button button--primary"
              // aria-disabled rather than disabled: a disabled button drops the keyboard focus, which
              // then could not come back to it when the "added" message closes, or when the piece sells out.
              onClick={() => {
                if (!adding && !soldOut) onAddToCart(product);
              }}
              aria-disabled={adding || soldOut || undefined}
              aria-label={adding ? undefined : soldOut ? t('products.soldOutLabel', { productName: name }) : t('products.addToCartLabel', { productName: name })}
            >
              {adding ? t('products.adding') : soldOut ? t('products.stock.soldOut') : t('products.addToCart')}
            </button>
          )}
        </div>
      </div>
    </article>
  );
}
