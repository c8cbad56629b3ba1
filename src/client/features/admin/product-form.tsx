import { useEffect, useId, useState, type FormEvent } from 'react';
import { productFieldsSchema } from '../../../shared/catalog-schemas.js';
import { PRODUCT_CATEGORIES, type Product } from '../../../shared/catalog.js';
import { errorText } from '../../api/error-text.js';
import { ApiError } from '../../api/http.js';
import { useTranslation } from '../../i18n/i18n.js';
import { saveProduct } from './admin-api.js';
import { StockHistory } from './stock-history.js';

interface ProductFormProps {
  /** The product being edited; absent when adding. */
  product?: Product;
  onSaved(product: Product): void;
  onCancel(): void;
}

export function ProductForm({ product, onSaved, onCancel }: ProductFormProps) {
  const { t } = useTranslation();
  const id = useId();
  const editing = product !== undefined;
  const [name, setName] = useState(product?.name ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [price, setPrice] = useState(product ? (product.priceMinor / 100).toFixed(2) : '');
  const [category, setCategory] = useState<string>(product?.category ?? '');
  const [madeToOrder, setMadeToOrder] = useState(product ? product.stock === null : false);
  const [stock, setStock] = useState(product?.stock != null ? String(product.stock) : '1');
  // The count the form showed: the server writes the admin's count only if orders did not change it since.
  const [stockSeen, setStockSeen] = useState(product ? (product.stock === null ? '' : String(product.stock)) : undefined);
  const [image, setImage] = useState<File | null>(null);
  const [preview, setPreview] = useState<string | null>(product?.imageUrl ? `${product.imageUrl}?w=320` : null);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!image) return;
    const url = URL.createObjectURL(image);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [image]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const stockField = madeToOrder ? '' : stock.trim();
    const checked = productFieldsSchema.safeParse({ name, description, price, category, stock: stockField });
    if (!checked.success) return setError(t(checked.error.issues[0]?.message ?? 'admin.products.messages.requiredFields'));
    if (!editing && !image) return setError(t('admin.products.messages.imageRequired'));
    if (editing && !product.id) return setError(t('admin.products.messages.idMissing'));
    setError(null);
    const form = new FormData();
    form.set('name', name.trim());
    form.set('description', description.trim());
    form.set('price', price);
    form.set('category', category);
    form.set('stock', stockField);
    if (stockSeen !== undefined) form.set('stockSeen', stockSeen);
    if (image) form.set('image', image);
    setProgress(0);
    try {
      onSaved(await saveProduct(form, product?.id ?? null, setProgress));
    } catch (failure) {
      if (failure instanceof ApiError && failure.code === 'stock_changed' && failure.details.stock !== undefined) {
        // Orders sold (or cancelling returned) pieces meanwhile: the form shows the count now, for the admin to decide again.
        const now = failure.details.stock;
        setMadeToOrder(now === null);
        setStock(now === null ? '1' : String(now));
        setStockSeen(now === null ? '' : String(now));
        setError(t('admin.products.messages.stockChanged', { stock: now === null ? t('admin.products.madeToOrder') : now }));
        return;
      }
      // The server's reason in the admin's language (a refused field's own message); a fault on our side keeps the specification's text.
      const detail = failure instanceof ApiError && failure.code !== 'internal' ? errorText(t, failure) : t('admin.products.messages.saveError');
      setError(t('admin.products.messages.errorPrefix', { message: detail }));
    } finally {
      setProgress(null);
    }
  };

  const saving = progress !== null;
  return (
    <form className="panel product-form" onSubmit={(event) => void submit(event)} noValidate>
      <h2 className="panel__title">{t(editing ? 'admin.products.formEditTitle' : 'admin.products.formAddTitle')}</h2>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name`}>
          {t('admin.products.name')} *
        </label>
        <input id={`${id}-name`} className="field__input" value={name} onChange={(event) => setName(event.target.value)} required maxLength={200} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-description`}>
          {t('admin.products.description')} *
        </label>
        <textarea id={`${id}-description`} className="field__input" rows={3} value={description} onChange={(event) => setDescription(event.target.value)} required maxLength={2000} />
      </div>
      <div className="address-form__row">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-price`}>
            {t('admin.products.price')} *
          </label>
          <input id={`${id}-price`} className="field__input" type="number" inputMode="decimal" step="0.01" min="0.01" value={price} onChange={(event) => setPrice(event.target.value)} required />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-category`}>
            {t('admin.products.category')}
          </label>
          <select id={`${id}-category`} className="field__input" value={category} onChange={(event) => setCategory(event.target.value)}>
            <option value="">{t('admin.products.noCategory')}</option>
            {PRODUCT_CATEGORIES.map((value) => (
              <option key={value} value={value}>
                {t(`products.categories.${value}`)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <fieldset className="field product-form__stock">
        <legend className="field__label">{t('admin.products.stock')}</legend>
        {!madeToOrder && (
          <input
            id={`${id}-stock`}
            className="field__input product-form__count"
            type="number"
            inputMode="numeric"
            min={0}
            max={100000}
            step={1}
            value={stock}
            onChange={(event) => setStock(event.target.value)}
            aria-label={t('admin.products.stock')}
          />
        )}
        <label className="choice">
          <input type="checkbox" checked={madeToOrder} onChange={(event) => setMadeToOrder(event.target.checked)} aria-describedby={`${id}-made-hint`} />
          <span>{t('admin.products.madeToOrder')}</span>
        </label>
        <p id={`${id}-made-hint`} className="field__hint">
          {t('admin.products.madeToOrderHint')}
        </p>
      </fieldset>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-image`}>
          {t('admin.products.image')}
          {!editing && ' *'}
        </label>
        <input
          id={`${id}-image`}
          className="field__input"
          type="file"
          accept="image/jpeg,image/png,image/webp"
          onChange={(event) => setImage(event.target.files?.[0] ?? null)}
          aria-describedby={`${id}-image-hint`}
        />
        <p id={`${id}-image-hint`} className="field__hint">
          {t('admin.products.imageHint')}
        </p>
        {preview && <img className="product-form__preview" src={preview} alt={t('admin.products.imagePreview')} width={160} height={160} />}
      </div>
      {saving && (
        <div className="progress">
          <progress max={100} value={progress} aria-label={t('admin.products.uploading', { percent: progress })} />
          <span>{t('admin.products.uploading', { percent: progress })}</span>
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {product && <StockHistory productId={product.id} />}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? t('admin.products.saving') : t('admin.products.save')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('admin.products.cancel')}
        </button>
      </div>
    </form>
  );
}
