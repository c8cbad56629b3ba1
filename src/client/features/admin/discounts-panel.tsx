import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { PRODUCT_CATEGORIES, type ProductCategory } from '#shared/catalog.js';
import { discountCodeInputSchema, type DiscountCodeInput, type DiscountCodeSummary, type DiscountKind } from '#shared/discounts.js';
import { parsePriceToMinor } from '#shared/money.js';
import { fromSofiaDateTime, sofiaDateTime } from '#shared/sofia-time.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized, useLocalize } from '#client/i18n/localized.js';
import { ConfirmDialog } from '#client/ui/confirm-dialog.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { Price, usePriceText } from '#client/ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';
import { useAdminProducts } from './admin-api.js';

type Toast = (toast: { message: string; kind: 'success' | 'error' }) => void;

/** A code's state as the list shows it, from its pause, its dates and its uses. */
type CodeState = 'active' | 'paused' | 'scheduled' | 'ended' | 'usedUp';

function stateOf(code: DiscountCodeSummary, now: number): CodeState {
  if (code.paused) return 'paused';
  if (code.endsAt && Date.parse(code.endsAt) <= now) return 'ended';
  if (code.usageLimit !== null && code.uses >= code.usageLimit) return 'usedUp';
  if (code.startsAt && Date.parse(code.startsAt) > now) return 'scheduled';
  return 'active';
}

/** The form's fields as typed: amounts and percentages as decimals, times as Sofia's wall clock. */
interface Draft {
  code: string;
  kind: DiscountKind;
  value: string;
  minSubtotal: string;
  startsAt: string;
  endsAt: string;
  usageLimit: string;
  perCustomerLimit: string;
  productIds: string[];
  categories: ProductCategory[];
}

const EMPTY_DRAFT: Draft = { code: '', kind: 'percent', value: '', minSubtotal: '', startsAt: '', endsAt: '', usageLimit: '', perCustomerLimit: '', productIds: [], categories: [] };

const decimalText = (minor: number) => (minor / 100).toFixed(2).replace(/\.00$/, '');

function draftOf(code: DiscountCodeSummary): Draft {
  return {
    code: code.code,
    kind: code.kind,
    value: code.kind === 'free_shipping' ? '' : decimalText(code.value),
    minSubtotal: code.minSubtotalMinor === null ? '' : decimalText(code.minSubtotalMinor),
    startsAt: code.startsAt ? sofiaDateTime(new Date(code.startsAt)) : '',
    endsAt: code.endsAt ? sofiaDateTime(new Date(code.endsAt)) : '',
    usageLimit: code.usageLimit === null ? '' : String(code.usageLimit),
    perCustomerLimit: code.perCustomerLimit === null ? '' : String(code.perCustomerLimit),
    productIds: code.productIds,
    categories: code.categories,
  };
}

/** The draft's field of a request's field, where their names differ. */
const DRAFT_FIELDS: Record<string, keyof Draft> = { minSubtotalMinor: 'minSubtotal' };

const wholeOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

/** The request for a draft; a value the shared schema refuses is refused with the same message as on the server. */
function inputOf(draft: Draft): DiscountCodeInput {
  const minor = (text: string) => parsePriceToMinor(text) ?? -1;
  return {
    code: draft.code,
    kind: draft.kind,
    value: draft.kind === 'free_shipping' ? 0 : minor(draft.value),
    minSubtotalMinor: draft.minSubtotal.trim() === '' ? null : minor(draft.minSubtotal),
    startsAt: draft.startsAt ? fromSofiaDateTime(draft.startsAt).toISOString() : null,
    endsAt: draft.endsAt ? fromSofiaDateTime(draft.endsAt).toISOString() : null,
    usageLimit: wholeOrNull(draft.usageLimit),
    perCustomerLimit: wholeOrNull(draft.perCustomerLimit),
    productIds: draft.productIds,
    categories: draft.categories,
  };
}

/** The admin's Discounts tab: the shop's codes with their uses and revenue, created, edited, paused and deleted. */
export default function DiscountsPanel({ onToast }: { onToast: Toast }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState<DiscountCodeSummary | 'new' | null>(null);
  const list = useQuery({
    queryKey: queryKeys.adminDiscountCodes(),
    queryFn: async () => (await requestJson<{ codes: DiscountCodeSummary[] }>('/api/admin/discount-codes')).codes,
    staleTime: 0,
  });

  if (editing) {
    return <DiscountCodeForm code={editing === 'new' ? null : editing} onDone={() => setEditing(null)} onToast={onToast} />;
  }
  return (
    <>
      <div className="toolbar">
        <button type="button" className="button button--primary" onClick={() => setEditing('new')}>
          {t('admin.discounts.new')}
        </button>
      </div>
      {list.isPending ? (
        <LoadingMessage>{t('admin.discounts.loading')}</LoadingMessage>
      ) : list.isError ? (
        <LoadErrorMessage message={t('admin.discounts.loadError')} onRetry={list.refetch} />
      ) : list.data.length === 0 ? (
        <p className="state-message">{t('admin.discounts.empty')}</p>
      ) : (
        <ul className="discount-list">
          {list.data.map((code) => (
            <DiscountCodeCard key={code.id} code={code} onEdit={() => setEditing(code)} onToast={onToast} />
          ))}
        </ul>
      )}
    </>
  );
}

function DiscountCodeCard({ code, onEdit, onToast }: { code: DiscountCodeSummary; onEdit: () => void; onToast: Toast }) {
  const { t, language } = useTranslation();
  const priceText = usePriceText();
  const queryClient = useQueryClient();
  const titleId = useId();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const state = stateOf(code, Date.now());

  const act = async (request: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await request();
      onToast({ message: t(done, { code: code.code }), kind: 'success' });
      await queryClient.invalidateQueries({ queryKey: queryKeys.adminDiscountCodes() });
    } catch (caught) {
      onToast({ message: errorText(t, caught), kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  const path = `/api/admin/discount-codes/${code.id}`;
  const conditions = [
    code.minSubtotalMinor !== null && t('admin.discounts.minimum', { amount: priceText(code.minSubtotalMinor) }),
    code.startsAt && t('admin.discounts.from', { date: formatDateTime(code.startsAt, language, '') }),
    code.endsAt && t('admin.discounts.until', { date: formatDateTime(code.endsAt, language, '') }),
    code.perCustomerLimit !== null && t('admin.discounts.perCustomer', { count: code.perCustomerLimit }),
    (code.productIds.length > 0 || code.categories.length > 0) &&
      t('admin.discounts.limitedTo', {
        what: [...code.categories.map((category) => t(`products.categories.${category}`)), code.productIds.length > 0 && t('admin.discounts.productCount', { count: code.productIds.length })]
          .filter(Boolean)
          .join(', '),
      }),
  ].filter(Boolean);

  return (
    <li className="discount-card" aria-labelledby={titleId}>
      <div className="discount-card__head">
        <h2 id={titleId} className="discount-card__code">
          {code.code}
        </h2>
        <span className={`discount-state discount-state--${state}`}>{t(`admin.discounts.states.${state}`)}</span>
      </div>
      <p className="discount-card__what">
        {code.kind === 'percent'
          ? t('admin.discounts.percentOff', { percent: decimalText(code.value).replace('.', language === 'bg' ? ',' : '.') })
          : code.kind === 'amount'
            ? t('admin.discounts.amountOff', { amount: priceText(code.value) })
            : t('admin.discounts.freeShipping')}
      </p>
      {conditions.length > 0 && <p className="muted">{conditions.join(' · ')}</p>}
      <p>
        {t(code.usageLimit === null ? 'admin.discounts.uses' : 'admin.discounts.usesOfLimit', { count: code.uses, limit: code.usageLimit ?? 0 })} ·{' '}
        {t('admin.discounts.revenue')} <Price minor={code.revenueMinor} />
      </p>
      <div className="form-actions">
        <button type="button" className="button" onClick={onEdit} disabled={busy}>
          {t('admin.discounts.edit')}
        </button>
        <button
          type="button"
          className="button"
          disabled={busy}
          onClick={() => void act(() => requestJson(`${path}/pause`, { method: 'POST', body: JSON.stringify({ paused: !code.paused }) }), code.paused ? 'admin.discounts.resumed' : 'admin.discounts.paused')}
        >
          {t(code.paused ? 'admin.discounts.resume' : 'admin.discounts.pause')}
        </button>
        <button type="button" className="button button--danger" onClick={() => setDeleting(true)} disabled={busy}>
          {t('admin.discounts.delete')}
        </button>
      </div>
      {deleting && (
        <ConfirmDialog
          title={t('admin.discounts.confirmDeleteTitle')}
          message={t('admin.discounts.confirmDelete', { code: code.code })}
          onConfirm={() => {
            setDeleting(false);
            void act(() => requestJson(path, { method: 'DELETE' }), 'admin.discounts.deleted');
          }}
          onCancel={() => setDeleting(false)}
        />
      )}
    </li>
  );
}

/** The form for a new code or one to change; the shared schema checks it before it is sent. */
function DiscountCodeForm({ code, onDone, onToast }: { code: DiscountCodeSummary | null; onDone: () => void; onToast: Toast }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const ids = useId();
  const [draft, setDraft] = useState<Draft>(code ? draftOf(code) : EMPTY_DRAFT);
  const [error, setError] = useState<{ field: string; messageKey: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [productFilter, setProductFilter] = useState('');
  const products = useAdminProducts('', language);
  const localize = useLocalize();
  const set = (change: Partial<Draft>) => setDraft((current) => ({ ...current, ...change }));

  const save = async () => {
    setFailure(null);
    const parsed = discountCodeInputSchema.safeParse(inputOf(draft));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = String(issue.path[0] ?? '');
      setError({ field: DRAFT_FIELDS[field] ?? field, messageKey: issue.message.startsWith('discounts.') ? issue.message : 'admin.discounts.invalid' });
      return;
    }
    setError(null);
    setSaving(true);
    try {
      await requestJson(code ? `/api/admin/discount-codes/${code.id}` : '/api/admin/discount-codes', { method: code ? 'PUT' : 'POST', body: JSON.stringify(parsed.data) });
      await queryClient.invalidateQueries({ queryKey: queryKeys.adminDiscountCodes() });
      onToast({ message: t('admin.discounts.saved', { code: parsed.data.code }), kind: 'success' });
      onDone();
    } catch (caught) {
      const refused = refusedField(t, caught);
      if (refused) setError({ ...refused, field: DRAFT_FIELDS[refused.field] ?? refused.field });
      else setFailure(errorText(t, caught));
    } finally {
      setSaving(false);
    }
  };

  const fieldError = (field: string) =>
    error?.field === field ? (
      <p id={`${ids}-${field}-error`} className="field__error">
        {t(error.messageKey)}
      </p>
    ) : null;
  const input = (field: keyof Draft & string, label: string, props: React.InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className="field">
      <label className="field__label" htmlFor={`${ids}-${field}`}>
        {label}
      </label>
      <input
        id={`${ids}-${field}`}
        className="field__input"
        value={draft[field] as string}
        aria-invalid={error?.field === field || undefined}
        aria-describedby={error?.field === field ? `${ids}-${field}-error` : undefined}
        onChange={(event) => set({ [field]: event.target.value })}
        {...props}
      />
      {fieldError(field)}
    </div>
  );
  const valueField = { percent: 'percent', amount: 'amount' } as const;
  const shownProducts = (products.data ?? []).filter((product) => {
    const filter = productFilter.trim().toLowerCase();
    return draft.productIds.includes(product.id) || (filter !== '' && localize(product.name).toLowerCase().includes(filter));
  });

  return (
    <form
      className="discount-form panel"
      aria-labelledby={`${ids}-title`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <h2 id={`${ids}-title`} className="panel__title">
        {code ? t('admin.discounts.editTitle', { code: code.code }) : t('admin.discounts.newTitle')}
      </h2>
      {input('code', t('admin.discounts.fields.code'), { autoCapitalize: 'characters', spellCheck: false, maxLength: 32 })}
      <fieldset className="choice-list">
        <legend className="field__label">{t('admin.discounts.fields.kind')}</legend>
        {(['percent', 'amount', 'free_shipping'] as const).map((kind) => (
          <label key={kind} className="choice">
            <input type="radio" name={`${ids}-kind`} checked={draft.kind === kind} onChange={() => set({ kind })} />
            <span>{t(`admin.discounts.kinds.${kind}`)}</span>
          </label>
        ))}
      </fieldset>
      {draft.kind !== 'free_shipping' && input('value', t(`admin.discounts.fields.${valueField[draft.kind]}`), { inputMode: 'decimal' })}
      {input('minSubtotal', t('admin.discounts.fields.minSubtotal'), { inputMode: 'decimal' })}
      <div className="discount-form__pair">
        {input('startsAt', t('admin.discounts.fields.startsAt'), { type: 'datetime-local' })}
        {input('endsAt', t('admin.discounts.fields.endsAt'), { type: 'datetime-local' })}
      </div>
      <p className="field__hint">{t('admin.discounts.sofiaTime')}</p>
      <div className="discount-form__pair">
        {input('usageLimit', t('admin.discounts.fields.usageLimit'), { type: 'number', min: 1, inputMode: 'numeric' })}
        {input('perCustomerLimit', t('admin.discounts.fields.perCustomerLimit'), { type: 'number', min: 1, inputMode: 'numeric' })}
      </div>
      <fieldset className="choice-list">
        <legend className="field__label">{t('admin.discounts.fields.limitTo')}</legend>
        <p className="field__hint">{t('admin.discounts.limitHint')}</p>
        {PRODUCT_CATEGORIES.map((category) => (
          <label key={category} className="choice">
            <input
              type="checkbox"
              checked={draft.categories.includes(category)}
              onChange={(event) => set({ categories: event.target.checked ? [...draft.categories, category] : draft.categories.filter((other) => other !== category) })}
            />
            <span>{t(`products.categories.${category}`)}</span>
          </label>
        ))}
        <div className="field">
          <label className="field__label" htmlFor={`${ids}-product-filter`}>
            {t('admin.discounts.fields.findProduct')}
          </label>
          <input id={`${ids}-product-filter`} className="field__input" type="search" value={productFilter} onChange={(event) => setProductFilter(event.target.value)} />
        </div>
        {shownProducts.map((product) => (
          <label key={product.id} className="choice">
            <input
              type="checkbox"
              checked={draft.productIds.includes(product.id)}
              onChange={(event) => set({ productIds: event.target.checked ? [...draft.productIds, product.id] : draft.productIds.filter((id) => id !== product.id) })}
            />
            <span>
              <Localized text={product.name} />
            </span>
          </label>
        ))}
      </fieldset>
      {fieldError('productIds')}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      {error && !['code', 'value', 'minSubtotal', 'startsAt', 'endsAt', 'usageLimit', 'perCustomerLimit', 'productIds'].includes(error.field) && (
        <p className="form-error" role="alert">
          {t(error.messageKey)}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? t('admin.discounts.saving') : t('admin.discounts.save')}
        </button>
        <button type="button" className="button" onClick={onDone} disabled={saving}>
          {t('admin.discounts.cancel')}
        </button>
      </div>
    </form>
  );
}
