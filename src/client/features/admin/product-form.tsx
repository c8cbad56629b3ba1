import { useId, useState, type FormEvent } from 'react';
import type { StockMode } from '#shared/product-options.js';
import { PRODUCT_DESCRIPTION_MAX_LENGTH, PRODUCT_NAME_MAX_LENGTH, productFieldsSchema } from '#shared/catalog-schemas.js';
import { PRODUCT_CATEGORIES, type Product } from '#shared/catalog.js';
import { RETURN_RULES } from '#shared/withdrawals.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { ApiError } from '#client/api/http.js';
import type { Translate } from '#client/i18n/i18n.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { settings } from '#client/settings.js';
import { ConfirmDialog } from '#client/ui/confirm-dialog.js';
import { currencyLabel, priceText } from '#client/ui/price-text.js';
import { arrangePhotos, removePhoto, saveProduct, uploadPhoto } from './admin-api.js';
import { PhotoManager, photoItemOf, type PhotoItem } from './photo-manager.js';
import { isPriceJump, photoFailuresText, priceFieldText, productMessageValues } from './product-messages.js';
import { saveProductWithPhotos } from './save-product-photos.js';
import { StockHistory } from './stock-history.js';
import { VatPriceWarning } from './vat-price-warning.js';
import { CombinationStockEditor } from './combination-stock-editor.js';
import { LeadTimeField } from './lead-time-field.js';
import { fieldId } from './model-fields.js';
import { formField, formToModel, isPlainForm, modelToForm, sentCombinationRows, withSavedIds, type ModelForm } from './product-model-form.js';
import { ProductOptionsEditor } from './product-options-editor.js';
import { ProductQuestionsEditor } from './product-questions-editor.js';

interface ProductFormProps {
  /** The product being edited; absent when adding. */
  product?: Product;
  onSaved(product: Product): void;
  onCancel(): void;
}

/** Photo errors have texts of the product form's own. */
const PHOTO_ERRORS: Partial<Record<string, string>> = {
  too_many_photos: 'admin.products.messages.tooManyPhotos',
  last_photo: 'admin.products.messages.lastPhoto',
  photos_changed: 'admin.products.messages.photosChanged',
};

/** Why a save failed, in the admin's language: a refused field's own message, else the code's text. */
function failureText(t: Translate, failure: unknown, language: string): string {
  if (failure instanceof ApiError && PHOTO_ERRORS[failure.code]) return t(PHOTO_ERRORS[failure.code]!);
  return failure instanceof ApiError && failure.code !== 'internal'
    ? errorText(t, failure, productMessageValues(language, settings.pricing.currency))
    : t('admin.products.messages.saveError');
}

/** A refusal of the `model` field's content, with the place in it the server named. */
function refusedModelField(t: Translate, failure: unknown) {
  const refused = refusedField(t, failure);
  return refused && /^(model|optionGroups|stockMode|combinations|sized|questions|leadTime)\b/.test(refused.field) ? refused : null;
}

export function ProductForm({ product, onSaved, onCancel }: ProductFormProps) {
  const { t, language } = useTranslation();
  const id = useId();
  // The product as last saved: a new product that is created but whose later photos failed is edited from then on.
  const [current, setCurrent] = useState(product);
  const editing = current !== undefined;
  const [nameEn, setNameEn] = useState(product?.name.en ?? '');
  const [nameBg, setNameBg] = useState(product?.name.bg ?? '');
  const [descriptionEn, setDescriptionEn] = useState(product?.description.en ?? '');
  const [descriptionBg, setDescriptionBg] = useState(product?.description.bg ?? '');
  const [price, setPrice] = useState(product ? priceFieldText(product.priceMinor, language) : '');
  const [category, setCategory] = useState<string>(product?.category ?? '');
  const [weight, setWeight] = useState(product?.weightGrams != null ? String(product.weightGrams) : '');
  const [madeToOrder, setMadeToOrder] = useState(product ? product.stock === null : false);
  const [stock, setStock] = useState(product?.stock != null ? String(product.stock) : '1');
  // The count the form showed: the server writes the admin's count only if orders did not change it since.
  const [stockSeen, setStockSeen] = useState(product ? (product.stock === null ? '' : String(product.stock)) : undefined);
  const [photos, setPhotos] = useState<PhotoItem[]>(() => (product?.photos ?? []).map(photoItemOf));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** A new price far from the old one, waiting for the admin to confirm it. */
  const [priceToConfirm, setPriceToConfirm] = useState<number | null>(null);
  const [model, setModel] = useState<ModelForm>(() => modelToForm(product, language));
  // A one-of-a-kind piece's form stays as short as it was: its options wait behind one closed section.
  const [modelOpen, setModelOpen] = useState(() => !isPlainForm(model));
  /** A refused part of the model (by its place in it, see product-model-form.ts), shown beside its field. */
  const [modelError, setModelError] = useState<{ field: string; message: string } | null>(null);
  const errorAt = (field: string) => (modelError?.field === field ? modelError.message : undefined);
  const perCombination = model.groups.length > 0 && model.stockMode === 'combination';

  /** Shows a refusal of the model beside its field, and there too in the form's message, and takes the focus there. */
  const refuseModel = (field: string, message: string) => {
    setModelError({ field, message });
    setError(message);
    if (!field.startsWith('leadTime')) setModelOpen(true);
    // After the render that opens the section and marks the field.
    requestAnimationFrame(() => document.getElementById(fieldId(id, field))?.focus());
  };
  const changeModel = (next: ModelForm) => {
    setModel(next);
    if (modelError) setModelError(null);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    // An empty count would read as made to order; only the box says that.
    if (!perCombination && !madeToOrder && stock.trim() === '') return setError(t('admin.products.messages.invalidStock'));
    const checked = productFieldsSchema.safeParse({ nameEn, nameBg, descriptionEn, descriptionBg, price, category, weight, stock: perCombination || madeToOrder ? '' : stock });
    if (!checked.success) return setError(t(checked.error.issues[0]?.message ?? 'admin.products.messages.requiredFields', productMessageValues(language, settings.pricing.currency)));
    const built = formToModel(model);
    if ('problem' in built) return refuseModel(built.problem.field, t(built.problem.messageKey, productMessageValues(language, settings.pricing.currency)));
    if (photos.length === 0) return setError(t('admin.products.messages.imageRequired'));
    setModelError(null);
    setError(null);
    if (current && isPriceJump(current.priceMinor, checked.data.price)) return setPriceToConfirm(checked.data.price);
    void save(checked.data.price);
  };

  /** Saves the product at the price the form checked (in minor units), then its photos. */
  const save = async (priceMinor: number) => {
    const built = formToModel(model);
    if ('problem' in built) return;
    const sentRows = sentCombinationRows(model);
    setSaving(true);
    const fields = new FormData();
    fields.set('nameEn', nameEn.trim());
    fields.set('nameBg', nameBg.trim());
    fields.set('descriptionEn', descriptionEn.trim());
    fields.set('descriptionBg', descriptionBg.trim());
    // The amount the form checked and the admin confirmed, with a decimal point whatever mark was typed.
    fields.set('price', (priceMinor / 100).toFixed(2));
    fields.set('category', category);
    fields.set('weight', weight.trim());
    // Counted per combination, the product's own count is not the admin's to set here: an edited one stays as it was, a new one has none.
    fields.set('stock', perCombination ? (stockSeen ?? '') : madeToOrder ? '' : stock.trim());
    if (stockSeen !== undefined) fields.set('stockSeen', stockSeen);
    fields.set('model', JSON.stringify(built.model));
    try {
      const { product: saved, failures } = await saveProductWithPhotos({
        fields,
        product: current,
        items: photos,
        calls: { saveProduct, uploadPhoto, removePhoto, arrangePhotos },
        onItems: setPhotos,
        onProduct: (answer, step) => {
          setCurrent(answer);
          // The count the admin saved is the one seen from now on; photo steps leave it to orders.
          if (step === 'fields') {
            setStockSeen(answer.stock === null ? '' : String(answer.stock));
            // Saved ids are the product's from now on: renaming a value later must not change what carts and orders name.
            setModel((shown) => withSavedIds(shown, built.ids, answer.combinations ?? []));
          }
        },
      });
      if (failures.length === 0) return onSaved(saved!);
      // Each file that did not go, by name and why; the form keeps it to be sent again or removed.
      setError(photoFailuresText(t, saved !== undefined, failures, (reason) => failureText(t, reason, language)));
    } catch (failure) {
      const refusedCombination = failure instanceof ApiError && failure.code === 'stock_changed' && /combinations/.test(failure.details.field ?? '') ? formField(failure.details.field!, sentRows) : null;
      if (refusedCombination?.startsWith('combinations.') && failure instanceof ApiError && failure.details.stock !== undefined) {
        // Orders took pieces of one combination meanwhile: its row shows the count now, for the admin to decide again.
        const now = failure.details.stock;
        const rowKey = refusedCombination.slice('combinations.'.length);
        setModel((shown) => ({ ...shown, combinations: { ...shown.combinations, [rowKey]: { count: now === null ? '' : String(now), notSold: false, seen: now } } }));
        refuseModel(refusedCombination, t('admin.products.messages.stockChanged', { stock: now === null ? t('admin.products.madeToOrder') : now }));
      } else if (failure instanceof ApiError && failure.code === 'stock_changed' && failure.details.stock !== undefined) {
        // Orders sold (or cancelling returned) pieces meanwhile: the form shows the count now, for the admin to decide again.
        const now = failure.details.stock;
        setMadeToOrder(now === null);
        setStock(now === null ? '1' : String(now));
        setStockSeen(now === null ? '' : String(now));
        setError(t('admin.products.messages.stockChanged', { stock: now === null ? t('admin.products.madeToOrder') : now }));
      } else if (refusedModelField(t, failure)) {
        // Beside the option, value or question the server refused, as the form's own check would show it.
        const refused = refusedModelField(t, failure)!;
        refuseModel(formField(refused.field, sentRows), t(refused.messageKey, productMessageValues(language, settings.pricing.currency)));
      } else {
        // The server's reason in the admin's language (a refused field's own message); a fault on our side keeps the specification's text.
        setError(t('admin.products.messages.errorPrefix', { message: failureText(t, failure, language) }));
      }
    } finally {
      setSaving(false);
    }
  };

  const choosePhotos = (next: PhotoItem[]) => {
    setPhotos(next);
    // The request for a photo is answered once there is one.
    if (next.length > 0 && error === t('admin.products.messages.imageRequired')) setError(null);
  };

  const languageFields = (
    [
      ['en', nameEn, setNameEn, descriptionEn, setDescriptionEn],
      ['bg', nameBg, setNameBg, descriptionBg, setDescriptionBg],
    ] as const
  ).map(([language, name, setName, description, setDescription]) => (
    <fieldset key={language} className="product-form__language" aria-describedby={`${id}-texts-hint`}>
      <legend className="product-form__language-title">{t(`admin.products.languages.${language}`)}</legend>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-name-${language}`}>
          {t(`admin.products.nameIn.${language}`)}
        </label>
        <input id={`${id}-name-${language}`} className="field__input" lang={language} value={name} onChange={(event) => setName(event.target.value)} maxLength={PRODUCT_NAME_MAX_LENGTH} />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={`${id}-description-${language}`}>
          {t(`admin.products.descriptionIn.${language}`)}
        </label>
        <textarea
          id={`${id}-description-${language}`}
          className="field__input"
          lang={language}
          rows={3}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          maxLength={PRODUCT_DESCRIPTION_MAX_LENGTH}
        />
      </div>
    </fieldset>
  ));

  return (
    <form className="panel product-form" onSubmit={submit} noValidate>
      <h2 className="panel__title">{t(editing ? 'admin.products.formEditTitle' : 'admin.products.formAddTitle')}</h2>
      <p id={`${id}-texts-hint`} className="field__hint">
        {t('admin.products.textsHint')}
      </p>
      <div className="product-form__languages">{languageFields}</div>
      <div className="address-form__row">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-price`}>
            {t('admin.products.price', { currency: currencyLabel(settings.pricing.currency) })} *
          </label>
          {/* Text, not type="number": a number field in a Bulgarian Chromium drops the decimal comma (24,90 became 2490); the shared schema reads both marks. */}
          <input
            id={`${id}-price`}
            className="field__input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={price}
            onChange={(event) => setPrice(event.target.value)}
            required
          />
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
        <div className="field">
          <label className="field__label" htmlFor={`${id}-weight`}>
            {t('admin.products.weight')}
          </label>
          <input
            id={`${id}-weight`}
            className="field__input"
            inputMode="numeric"
            value={weight}
            maxLength={5}
            aria-describedby={`${id}-weight-hint`}
            onChange={(event) => setWeight(event.target.value)}
          />
          <p id={`${id}-weight-hint`} className="field__hint">
            {t('admin.products.weightHint')}
          </p>
        </div>
      </div>
      <VatPriceWarning price={price} groups={model.groups} pricing={settings.pricing} id={`${id}-vat-prices`} />
      {!perCombination && (
        <fieldset className="field product-form__stock">
          <legend className="field__label">{t('admin.products.stock')}</legend>
          {!madeToOrder && (
            <input
              id={`${id}-stock`}
              className="field__input product-form__count"
              type="text"
              inputMode="numeric"
              autoComplete="off"
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
      )}
      <LeadTimeField formId={id} value={model.leadTime} onChange={(leadTime) => changeModel({ ...model, leadTime })} errorAt={errorAt} />
      <fieldset className="field" aria-describedby={`${id}-return-hint`}>
        <legend className="field__label">{t('admin.products.model.returnRule.legend')}</legend>
        <div className="model-radios">
          {RETURN_RULES.map((rule) => (
            <label key={rule} className="choice">
              <input type="radio" name={`${id}-return-rule`} value={rule} checked={model.returnRule === rule} onChange={() => changeModel({ ...model, returnRule: rule })} />
              <span>{t(`admin.products.model.returnRule.${rule}`)}</span>
            </label>
          ))}
        </div>
        <p id={`${id}-return-hint`} className="field__hint">
          {t('admin.products.model.returnRule.hint')}
        </p>
      </fieldset>
      <details className="product-model" open={modelOpen} onToggle={(event) => setModelOpen(event.currentTarget.open)}>
        <summary className="product-model__summary">
          {t('admin.products.model.title')}
          {isPlainForm(model) && <span className="muted"> — {t('admin.products.model.summaryPlain')}</span>}
        </summary>
        <p className="field__hint">{t('admin.products.model.hint')}</p>
        <ProductOptionsEditor formId={id} groups={model.groups} onChange={(groups) => changeModel({ ...model, groups })} errorAt={errorAt} />
        {model.groups.length > 0 && (
          <CombinationStockEditor
            formId={id}
            groups={model.groups}
            stockMode={model.stockMode}
            onStockMode={(stockMode: StockMode) => changeModel({ ...model, stockMode })}
            combinations={model.combinations}
            onChange={(combinations) => changeModel({ ...model, combinations })}
            errorAt={errorAt}
          />
        )}
        <div className="model-section">
          <label className="choice">
            <input type="checkbox" checked={model.sized} onChange={(event) => changeModel({ ...model, sized: event.target.checked })} aria-describedby={`${id}-sized-hint`} />
            <span>{t('admin.products.model.sized')}</span>
          </label>
          <p id={`${id}-sized-hint`} className="field__hint">
            {t('admin.products.model.sizedHint')}
          </p>
        </div>
        <ProductQuestionsEditor formId={id} questions={model.questions} onChange={(questions) => changeModel({ ...model, questions })} errorAt={errorAt} />
      </details>
      <PhotoManager
        items={photos}
        onChange={choosePhotos}
        productName={{ en: nameEn.trim(), bg: nameBg.trim() }}
        saving={saving}
        failureText={(reason) => failureText(t, reason, language)}
      />
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {current && <StockHistory productId={current.id} />}
      {current && priceToConfirm !== null && (
        <ConfirmDialog
          title={t('admin.products.confirmPriceTitle')}
          message={t('admin.products.confirmPrice', {
            newPrice: priceText(priceToConfirm, settings.pricing.currency, language, false),
            oldPrice: priceText(current.priceMinor, settings.pricing.currency, language, false),
          })}
          confirmLabel={t('admin.products.confirmPriceSave', { newPrice: priceText(priceToConfirm, settings.pricing.currency, language, false) })}
          cancelLabel={t('admin.products.confirmPriceCancel')}
          onConfirm={() => {
            setPriceToConfirm(null);
            void save(priceToConfirm);
          }}
          onCancel={() => setPriceToConfirm(null)}
        />
      )}
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
