import { useEffect, useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'wouter';
import type { Product } from '#shared/catalog.js';
import { NEW_PRODUCT_PARAM } from '#shared/routes.js';
import { STOCK_FILTERS, stockLevel, type StockFilter } from '#shared/stock.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { ConfirmDialog } from '#client/ui/confirm-dialog.js';
import { useModal } from '#client/ui/modal/modal-context.js';
import { Price } from '#client/ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { deleteProduct, useAdminProducts } from './admin-api.js';
import { useAdminView } from './admin-location.js';
import { ProductForm } from './product-form.js';
import { Localized, useLocalize } from '#client/i18n/localized.js';
import { ProductCsv } from './product-csv.js';

type Editing = { product?: Product } | null;

export function ProductsPanel() {
  const { t, language } = useTranslation();
  const localize = useLocalize();
  const [view, setView] = useAdminView();
  const products = useAdminProducts(view.stock, language);
  const filterId = useId();
  const queryClient = useQueryClient();
  const showModal = useModal();
  const [params, setParams] = useSearchParams();
  // /admin?tab=products&product=new (an empty shop's home page links there) opens the form for a new product.
  const [editing, setEditing] = useState<Editing>(() => (params.get(NEW_PRODUCT_PARAM) === 'new' ? {} : null));
  const [deleting, setDeleting] = useState<Product | null>(null);
  const opensNewProduct = params.has(NEW_PRODUCT_PARAM);
  useEffect(() => {
    // Once opened, the address is the product list's again, so that a reload after saving does not open an empty form.
    if (!opensNewProduct) return;
    const rest = new URLSearchParams(params);
    rest.delete(NEW_PRODUCT_PARAM);
    setParams(rest, { replace: true });
  }, [opensNewProduct, params, setParams]);

  // The storefront's list is the same catalogue: both are fetched again after a change.
  const refresh = () => Promise.all([queryClient.invalidateQueries({ queryKey: queryKeys.adminProducts() }), queryClient.invalidateQueries({ queryKey: queryKeys.catalogue() })]);

  const remove = async (product: Product) => {
    setDeleting(null);
    if (!product.id) return showModal({ type: 'error', message: t('admin.products.messages.idRequired') });
    try {
      await deleteProduct(product.id);
      await refresh();
      showModal({ type: 'success', message: t('admin.products.messages.deleted') });
    } catch {
      showModal({ type: 'error', message: t('admin.products.messages.deleteError') });
    }
  };

  if (editing) {
    return (
      <ProductForm
        product={editing.product}
        onCancel={() => {
          setEditing(null);
          // A new product may exist by now although its form was not saved to the end (a later photo failed).
          void refresh();
        }}
        onSaved={(saved) => {
          // The list shows the saved product at once: an edit opened before the new list arrives starts from what was saved.
          queryClient.setQueriesData<Product[]>({ queryKey: queryKeys.adminProducts(), predicate: ({ queryKey }) => queryKey.length === 4 && queryKey[2] !== 'stock-changes' }, (list) =>
            list?.map((shown) => (shown.id === saved.id ? saved : shown)),
          );
          setEditing(null);
          void refresh();
          showModal({ type: 'success', message: t('admin.products.messages.saved') });
        }}
      />
    );
  }

  return (
    <>
      <div className="toolbar">
        <button type="button" className="button button--primary" onClick={() => setEditing({})}>
          {t('admin.products.add')}
        </button>
        <div className="field field--inline">
          <label className="field__label" htmlFor={filterId}>
            {t('admin.products.stockFilter')}
          </label>
          <select id={filterId} className="field__input" value={view.stock} onChange={(event) => setView({ ...view, stock: event.target.value as StockFilter | '' }, { replace: true })}>
            <option value="">{t('admin.products.stockFilters.all')}</option>
            {STOCK_FILTERS.map((filter) => (
              <option key={filter} value={filter}>
                {t(`admin.products.stockFilters.${filter}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ProductCsv onImported={() => void refresh()} />
      {products.isPending ? (
        <LoadingMessage>{t('admin.products.loading')}</LoadingMessage>
      ) : products.isError ? (
        <LoadErrorMessage message={t('products.loadError')} onRetry={products.refetch} />
      ) : products.data.length === 0 ? (
        <p className="state-message">{t(view.stock ? 'admin.products.stockFilterEmpty' : 'admin.products.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--products">
            <thead>
              <tr>
                <th scope="col">{t('admin.products.columns.image')}</th>
                <th scope="col">{t('admin.products.columns.name')}</th>
                <th scope="col">{t('admin.products.columns.category')}</th>
                <th scope="col">{t('admin.products.columns.price')}</th>
                <th scope="col">{t('admin.products.columns.stock')}</th>
                <th scope="col">{t('admin.products.columns.actions')}</th>
              </tr>
            </thead>
            <tbody>
              {products.data.map((product) => (
                <tr key={product.id}>
                  <td className="table__image">{product.photos[0] && <img src={`${product.photos[0].url}?w=320`} alt="" width={48} height={48} loading="lazy" className="table__thumb" />}</td>
                  <th scope="row" className="table__name">
                    <Localized text={product.name} />
                  </th>
                  <td className="table__category">{product.category ? t(`products.categories.${product.category}`) : '—'}</td>
                  <td className="table__price">
                    <Price minor={product.priceMinor} />
                  </td>
                  <td className="table__stock" data-level={stockLevel(product.stock)}>
                    {product.stock === null
                      ? t('admin.products.madeToOrder')
                      : product.stock === 0
                        ? t('admin.products.soldOut')
                        : t('admin.products.stockCount', { count: product.stock })}
                  </td>
                  <td className="table__actions">
                    <button type="button" className="button button--small" onClick={() => setEditing({ product })} aria-label={`${t('admin.products.edit')}: ${localize(product.name)}`}>
                      {t('admin.products.edit')}
                    </button>
                    <button type="button" className="button button--small button--ghost" onClick={() => setDeleting(product)} aria-label={`${t('admin.products.delete')}: ${localize(product.name)}`}>
                      {t('admin.products.delete')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {deleting && (
        <ConfirmDialog
          title={t('admin.products.confirmDeleteTitle')}
          message={t('admin.products.confirmDelete', { name: localize(deleting.name) })}
          onConfirm={() => void remove(deleting)}
          onCancel={() => setDeleting(null)}
        />
      )}
    </>
  );
}
