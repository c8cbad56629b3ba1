import { useEffect, type ReactNode } from 'react';
import { Link, useLocation, useParams, useSearch } from 'wouter';
import { pickText } from '../../../shared/catalog.js';
import { productPath } from '../../../shared/routes.js';
import { stockLevel } from '../../../shared/stock.js';
import { useTranslation } from '../../i18n/i18n.js';
import { Localized } from '../../i18n/localized.js';
import { usePageMeta } from '../../seo/page-meta.js';
import { Price } from '../../ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '../../ui/state-message.js';
import { lastCatalogueView } from './catalogue-view.js';
import { ProductCard } from './product-card.js';
import { ProductGallery } from './product-gallery.js';
import { useProductPage } from './products-api.js';
import { useAddToCart } from './use-add-to-cart.js';

/** /product/{slug}: the product's photos, texts, price and stock, the add button, and more of its category. */
export default function ProductPage({ notFound }: { notFound: ReactNode }) {
  const { t, language, pageTextsReady } = useTranslation();
  const { slug = '' } = useParams<{ slug: string }>();
  const search = useSearch();
  const [, navigate] = useLocation();
  const page = useProductPage(slug);
  const product = page.data?.product;
  const { adding, addToCart } = useAddToCart();

  usePageMeta(
    product
      ? { product, title: pickText(product.name, language).text, description: pickText(product.description, language).text, image: product.photos[0]?.url }
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
            <h1 id="product-title" className="product-page__name">
              <Localized text={product.name} />
            </h1>
            <p className="product-page__price">
              <Price minor={product.priceMinor} />
            </p>
            <p className={`product-page__stock${soldOut ? ' product-page__stock--out' : ''}`}>
              {level === 'madeToOrder'
                ? t('productPage.madeToOrder')
                : level === 'inStock'
                  ? t('productPage.inStock')
                  : soldOut
                    ? t('products.stock.soldOut')
                    : t('products.stock.low', { count: product.stock! })}
            </p>
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
            {/* The notice's text comes with the other pages' texts, which load once the page is idle. */}
            {pageTextsReady && (product.sized || product.questions.length > 0) && <p className="exempt-notice">{t('withdrawalForm.exemptNotice')}</p>}
            <div className="product-page__description">
              <Localized text={product.description} />
            </div>
          </div>
        </div>
      </article>
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
