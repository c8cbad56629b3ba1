import { useId, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { formatGiftCardCode, giftCardIssueSchema, type GiftCardSummary } from '#shared/gift-cards.js';
import { parsePriceToMinor } from '#shared/money.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { Price, usePriceText } from '#client/ui/price.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';

type Toast = (toast: { message: string; kind: 'success' | 'error' }) => void;
type IssuedCard = GiftCardSummary & { code: string };

/** The admin's Gift cards tab: cards issued by hand, and every card with what is left on it. */
export default function GiftCardsPanel({ onToast }: { onToast: Toast }) {
  const { t, language } = useTranslation();
  const [issued, setIssued] = useState<IssuedCard | null>(null);
  const list = useQuery({
    queryKey: queryKeys.adminGiftCards(),
    queryFn: async () => (await requestJson<{ cards: GiftCardSummary[] }>('/api/admin/gift-cards')).cards,
    staleTime: 0,
  });
  return (
    <>
      <p className="muted">{t('giftCards.admin.intro')}</p>
      <IssueForm onIssued={setIssued} />
      {issued && <IssuedCardView card={issued} onToast={onToast} />}
      <h2 className="section-title">{t('giftCards.admin.title')}</h2>
      {list.isPending ? (
        <LoadingMessage>{t('giftCards.admin.loading')}</LoadingMessage>
      ) : list.isError ? (
        <LoadErrorMessage message={t('giftCards.admin.loadError')} onRetry={list.refetch} />
      ) : list.data.length === 0 ? (
        <p className="state-message">{t('giftCards.admin.empty')}</p>
      ) : (
        <div className="table-wrap">
          <table className="table table--gift-cards">
            <thead>
              <tr>
                <th scope="col">{t('giftCards.admin.columns.card')}</th>
                <th scope="col">{t('giftCards.admin.columns.balance')}</th>
                <th scope="col">{t('giftCards.admin.columns.initial')}</th>
                <th scope="col">{t('giftCards.admin.columns.uses')}</th>
                <th scope="col">{t('giftCards.admin.columns.note')}</th>
                <th scope="col">{t('giftCards.admin.columns.created')}</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((card) => (
                <tr key={card.id}>
                  <th scope="row" className="table__name">
                    …{card.ending}
                  </th>
                  <td className="table__price">
                    <Price minor={card.balanceMinor} />
                  </td>
                  <td className="table__price">
                    <Price minor={card.initialMinor} />
                  </td>
                  <td>{card.uses}</td>
                  <td>{card.note}</td>
                  <td className="table__date">{formatDateTime(card.createdAt, language, '')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** The amount and note of a card to issue, checked by the shared schema before they are sent. */
function IssueForm({ onIssued }: { onIssued: (card: IssuedCard) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const ids = useId();
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [error, setError] = useState<{ field: string; messageKey: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [issuing, setIssuing] = useState(false);

  const issue = async () => {
    setFailure(null);
    const parsed = giftCardIssueSchema.safeParse({ amountMinor: amount.trim() === '' ? undefined : (parsePriceToMinor(amount) ?? -1), note });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setError({ field: String(issue.path[0] ?? ''), messageKey: issue.message });
      return;
    }
    setError(null);
    setIssuing(true);
    try {
      const { card } = await requestJson<{ card: IssuedCard }>('/api/admin/gift-cards', { method: 'POST', body: JSON.stringify(parsed.data) });
      setAmount('');
      setNote('');
      onIssued(card);
      await queryClient.invalidateQueries({ queryKey: queryKeys.adminGiftCards() });
    } catch (caught) {
      const refused = refusedField(t, caught);
      if (refused) setError(refused);
      else setFailure(errorText(t, caught));
    } finally {
      setIssuing(false);
    }
  };

  const field = (name: 'amountMinor' | 'note', label: string, value: string, onChange: (value: string) => void, props: React.InputHTMLAttributes<HTMLInputElement>) => (
    <div className="field">
      <label className="field__label" htmlFor={`${ids}-${name}`}>
        {label}
      </label>
      <input
        id={`${ids}-${name}`}
        className="field__input"
        value={value}
        aria-invalid={error?.field === name || undefined}
        aria-describedby={error?.field === name ? `${ids}-${name}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        {...props}
      />
      {error?.field === name && (
        <p id={`${ids}-${name}-error`} className="field__error">
          {t(error.messageKey)}
        </p>
      )}
    </div>
  );

  return (
    <form
      className="form gift-card-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void issue();
      }}
    >
      {field('amountMinor', t('giftCards.admin.amount'), amount, setAmount, { inputMode: 'decimal', autoComplete: 'off' })}
      {field('note', t('giftCards.admin.note'), note, setNote, { maxLength: 200, autoComplete: 'off' })}
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className="button button--primary" disabled={issuing}>
        {issuing ? t('giftCards.admin.issuing') : t('giftCards.admin.issue')}
      </button>
    </form>
  );
}

/** The card just issued, whole code and all, once: to copy, or to print as a card for the recipient. */
function IssuedCardView({ card, onToast }: { card: IssuedCard; onToast: Toast }) {
  const { t } = useTranslation();
  const priceText = usePriceText();
  const code = formatGiftCardCode(card.code);
  return (
    <section className="gift-card-issued" aria-labelledby="gift-card-issued-title">
      <p id="gift-card-issued-title" role="status" className="gift-card-issued__notice">
        {t('giftCards.admin.issued')}
      </p>
      <div className="gift-card-issued__card">
        <p className="gift-card-issued__title">{t('giftCards.admin.printTitle')}</p>
        <p className="gift-card-issued__value">{t('giftCards.admin.printValue', { amount: priceText(card.initialMinor) })}</p>
        <p>
          {t('giftCards.admin.code')}: <strong className="gift-card-issued__code">{code}</strong>
        </p>
        <p className="muted">{t('giftCards.admin.printHow', { shop: window.location.host })}</p>
      </div>
      <div className="toolbar gift-card-issued__actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            void navigator.clipboard.writeText(code).then(
              () => onToast({ message: t('giftCards.admin.copied'), kind: 'success' }),
              () => onToast({ message: code, kind: 'success' }),
            )
          }
        >
          {t('giftCards.admin.copy')}
        </button>
        <button type="button" className="button" onClick={() => window.print()}>
          {t('giftCards.admin.print')}
        </button>
      </div>
    </section>
  );
}
