import { Suspense, useEffect, type ReactNode } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { GIFT_CARD_CATEGORY, pickText, type Product } from '#shared/catalog.js';
import { isPlainProduct } from '#shared/product-options.js';
import { productPath } from '#shared/routes.js';
import { stockLevel } from '#shared/stock.js';
import { dispatchDate } from '#shared/working-days.js';
import { PageTexts, useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { Price } from '#client/ui/price.js';
import { ShipsBy } from '#client/ui/ships-by.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { lastCatalogueView } from './catalogue-view.js';
import { ProductCard } from './product-card.js';
import { ProductChooser } from './product-chooser.js';
import { ProductGallery } from './product-gallery.js';
import { useProductPage } from './products-api.js';
import { ProductReviews, useProductReviews } from './product-reviews.js';
import { useAddToCart } from './use-add-to-cart.js';
import { lazyOrNothing } from '#client/ui/lazy-or-nothing.js';
import { FavouriteButton } from '#client/favourites/favourite-button.js';

// Only a sold-out piece's page asks for it; without its code (offline) the page shows the rest.
const SimilarPieceForm = lazyOrNothing(() => import('./similar-piece-form.js'));
const BackInStockForm = lazyOrNothing(() => import('./back-in-stock-form.js'));

/**
 * What the buyer reads about the right of withdrawal before she orders: sets made to her sizes or
 * answers, and personalised products, are not returnable; hygiene-sealed ones only while sealed.
 */
function returnNotice(product: Product): 'productPage.exemptNotice' | 'productPage.sealedNotice' | null {
  if (product.sized || product.questions.length > 0 || product.returnRule === 'personalised') return 'productPage.exemptNotice';
  return product.returnRule === 'hygiene_sealed' ? 'productPage.sealedNotice' : null;
}

/**
 * /product/{slug}. Its texts (and those of the choices) come in a chunk of their own, which downloads
 * beside the product: the home page's first download stays small.
 */
export default function ProductPage({ notFound }: { notFound: ReactNode }) {
  const { t } = useTranslation();
  const { slug = '' } = useParams<{ slug: string }>();
  // Asked now, not once the texts are here, so that both downloads run at once.
  useProductPage(slug);
  return (
    <PageTexts
      shopOnly
      fallback={
        <div className="page-loading">
          <LoadingMessage>{t('app.loading')}</LoadingMessage>
        </div>
      }
      failed={(retry) => <LoadErrorMessage message={t('app.chunkError')} onRetry={retry} />}
    >
      <ProductPageContent notFound={notFound} />
    </PageTexts>
  );
}

/** The product's photos, texts, price and stock, its choices and the add button, and more of its category. */
function ProductPageContent({ notFound }: { notFound: ReactNode }) {
  const { t, language } = useTranslation();
  const { slug = '' } = useParams<{ slug: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const page = useProductPage(slug);
  const product = page.data?.product;
  const { adding, addToCart } = useAddToCart();
  const firstReviews = useProductReviews(product?.id).data?.pages[0];

  usePageMeta(
    product
      ? {
          product,
          title: pickText(product.name, language).text,
          description: pickText(product.description, language).text,
          image: product.photos[0]?.url,
          productReviews: firstReviews,
        }
      : page.data === null
        ? { page: 'notFound', noIndex: true, notFound: true }
        : {},
  );

  // An address from before a rename shows the product under its new one.
  useEffect(() => {
    if (product && product.slug !== slug) navigate(productPath(product.slug, search), { replace: true });
  }, [product, slug, search, navigate]);

  if (page.isPending)
    return (
      <div className="page-loading">
        <LoadingMessage>{t('productPage.loading')}</LoadingMessage>
      </div>
    );
  if (page.isError) return <LoadErrorMessage message={t('productPage.loadError')} onRetry={page.refetch} />;
  if (!product) return notFound;

  const level = stockLevel(product.stock);
  const soldOut = level === 'soldOut';
  const countedByCombination = product.stockMode === 'combination' && product.optionGroups.length > 0;
  // No piece can be bought now, in any combination: the buyer may ask to be told when it is back, or for a similar one.
  const noneLeft = product.stockMode === 'combination' ? product.combinations.every((combination) => combination.stock === 0) : soldOut;
  const notice = returnNotice(product);
  const stockText =
    level === 'madeToOrder'
      ? t('productPage.madeToOrder')
      : level === 'inStock'
        ? t('productPage.inStock')
        : soldOut
          ? t('products.stock.soldOut')
          : t('products.stock.low', { count: product.stock! });
  const name = pickText(product.name, language).text;
  const busy = adding.has(product.id);
  const related = page.data?.related ?? [];
  const categoryName = product.category ? t(`products.categories.${product.category}`) : '';

  return (
    <>
      <article className="product-page" aria-labelledby="product-title">
        <p className="product-page__back">
          <Link href={lastCatalogueView()}>← {t('productPage.backToShop')}</Link>
        </p>
        <div className="product-page__layout">
          <ProductGallery product={product} />
          <div className="product-page__info">
            {categoryName && (
              <p className="product-page__category">
                <span className="visually-hidden">{t('productPage.category')}: </span>
                {categoryName}
              </p>
            )}
            <div className="product-page__heading">
              <h1 id="product-title" className="product-page__name">
                <Localized text={product.name} />
              </h1>
              <FavouriteButton productId={product.id} productName={name} />
            </div>
            {isPlainProduct(product) ? (
              <>
                <p className="product-page__price">
                  <Price minor={product.priceMinor} />
                </p>
                <p className={`product-page__stock${soldOut ? ' product-page__stock--out' : ''}`}>{stockText}</p>
                {/* A gift card is sent by e-mail once paid: it has no day to ship by. */}
                {product.category === GIFT_CARD_CATEGORY ? (
                  <p className="ships-by">{t('productPage.giftCardSent')}</p>
                ) : (
                  !soldOut && <ShipsBy dates={[dispatchDate(product.leadTime, new Date())]} />
                )}
                <button
                  type="button"
                  className="button button--primary button--large"
                  // aria-disabled keeps the focus on the button while it works or when the piece sells out.
                  onClick={() => {
                    if (!busy && !soldOut) void addToCart(product);
                  }}
                  aria-disabled={busy || soldOut || undefined}
                  aria-label={busy ? undefined : soldOut ? t('products.soldOutLabel', { productName: name }) : t('products.addToCartLabel', { productName: name })}
                >
                  {busy ? t('products.adding') : soldOut ? t('products.stock.soldOut') : t('products.addToCart')}
                </button>
              </>
            ) : (
              <ProductChooser
                // Chosen anew for another product (a related one opened from here).
                key={product.id}
                product={product}
                busy={busy}
                soldOut={soldOut && !countedByCombination}
                // A product counted by combination has the chosen combination's count instead.
                stockNote={countedByCombination ? null : <p className={`product-page__stock${soldOut ? ' product-page__stock--out' : ''}`}>{stockText}</p>}
                onAdd={(chosen, onRefused) => void addToCart(product, chosen, (refusal) => onRefused(refusal.problem, refusal.message))}
              />
            )}
            {noneLeft && (
              <Suspense fallback={null}>
                <BackInStockForm key={`alert-${product.id}`} productId={product.id} />
                <SimilarPieceForm key={`similar-${product.id}`} productId={product.id} />
              </Suspense>
            )}
            {notice && <p className="exempt-notice">{t(notice)}</p>}
            <div className="product-page__description">
              <Localized text={product.description} />
            </div>
          </div>
        </div>
      </article>
      <ProductReviews productId={product.id} />
      {related.length > 0 && (
        <section className="products" aria-labelledby="related-title">
          <h2 id="related-title" className="section-title">
            {categoryName ? t('productPage.related', { category: categoryName }) : t('productPage.relatedAll')}
          </h2>
          <div className="product-grid">
            {related.map((other) => (
              <ProductCard key={other.id} product={other} adding={adding.has(other.id)} eager={false} onAddToCart={(chosen) => void addToCart(chosen)} />
            ))}
          </div>
        </section>
      )}
    </>
  );
}
