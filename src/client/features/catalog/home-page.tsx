import { useState } from 'react';
import type { Product } from '../../../shared/catalog.js';
import { errorText } from '../../api/error-text.js';
import { useCart } from '../../cart/cart.js';
import { useTranslation } from '../../i18n/i18n.js';
import { usePageMeta } from '../../seo/page-meta.js';
import { useSession } from '../../session/session.js';
import { useModal } from '../../ui/modal/modal-context.js';
import { usePriceText } from '../../ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '../../ui/state-message.js';
import { ProductCard } from './product-card.js';
import { useProducts } from './products-api.js';

const EAGER_IMAGES = 4;

export function HomePage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const showModal = useModal();
  const priceText = usePriceText();
  const products = useProducts();
  usePageMeta({
    titleKey: 'meta.homeTitle',
    products: products.data,
    image: products.data?.[0]?.imageUrl,
  });

  const cart = useCart();
  const [adding, setAdding] = useState<ReadonlySet<string>>(new Set());

  const addToCart = async (product: Product) => {
    if (!user) {
      showModal({ type: 'info', message: t('products.signInRequired') });
      return;
    }
    setAdding((ids) => new Set(ids).add(product.id));
    try {
      const { offline, added } = await cart.add(product);
      // The message names the product as the cart holds it, and says so when its price is not the one this page showed.
      const productName = added?.name ?? product.name;
      const message =
        added && added.priceMinor !== product.priceMinor
          ? t('products.addedAtNewPrice', { productName, price: priceText(added.priceMinor) })
          : t(offline ? 'products.addedOffline' : 'products.addedToCart', { productName });
      showModal({ type: 'success', message });
    } catch (error) {
      showModal({ type: 'error', message: t('products.addError', { errorMessage: errorText(t, error) }) });
    } finally {
      setAdding((ids) => {
        const next = new Set(ids);
        next.delete(product.id);
        return next;
      });
    }
  };

  return (
    <>
      <section className="hero">
        <h1 className="hero__title">{t('home.heroTitle')}</h1>
        <p className="hero__subtitle">{t('home.heroSubtitle')}</p>
      </section>
      <section className="products" aria-labelledby="products-title">
        <h2 id="products-title" className="section-title">
          {t('products.title')}
        </h2>
        {products.isPending ? (
          <LoadingMessage>{t('products.loading')}</LoadingMessage>
        ) : products.isError ? (
          <LoadErrorMessage message={t('products.loadError')} onRetry={products.refetch} />
        ) : products.data.length === 0 ? (
          <p className="state-message">{t('products.empty')}</p>
        ) : (
          <div className="product-grid">
            {products.data.map((product, index) => (
              <ProductCard key={product.id} product={product} adding={adding.has(product.id)} eager={index < EAGER_IMAGES} onAddToCart={(chosen) => void addToCart(chosen)} />
            ))}
          </div>
        )}
      </section>
    </>
  );
}
