import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useSearch } from 'wouter';
import type { Withdrawal, WithdrawalLine, WithdrawalPreview } from '#shared/withdrawals.js';
import { errorText, refusedField } from '#client/api/error-text.js';
import { newRequestId } from '#client/api/request-id.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { Localized } from '#client/i18n/localized.js';
import { useOrders } from '#client/orders/orders-api.js';
import { usePageMeta } from '#client/seo/page-meta.js';
import { useSession } from '#client/session/session.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LinePrice } from '#client/ui/line-price.js';
import { confirmWithdrawal, previewWithdrawal } from './withdrawal-api.js';

type Stage = 'find' | 'details' | 'confirm' | 'done';

/**
 * The EU withdrawal button's form (Directive 2011/83/EU art. 11a): find the order (its number and
 * e-mail, or one of a signed-in buyer's own), choose the lines and say where the acknowledgement
 * goes, then confirm. Only the confirmation records anything.
 */
export default function WithdrawalPage() {
  const { t, language } = useTranslation();
  const { user } = useSession();
  const search = new URLSearchParams(useSearch());
  usePageMeta({ title: t('withdrawalForm.title'), noIndex: true });
  const ownOrders = useOrders(Boolean(user));
  const openOrders = (ownOrders.data ?? []).filter((order) => order.afterSale?.withdrawalOpen);

  const [stage, setStage] = useState<Stage>('find');
  const [orderId, setOrderId] = useState(search.get('order') ?? '');
  const [email, setEmail] = useState('');
  const [preview, setPreview] = useState<WithdrawalPreview | null>(null);
  const [chosen, setChosen] = useState<Record<number, boolean>>({});
  const [fullName, setFullName] = useState('');
  const [ackEmail, setAckEmail] = useState(user?.email ?? '');
  const [reason, setReason] = useState('');
  const [iban, setIban] = useState('');
  const [error, setError] = useState<{ text: string; field?: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<Withdrawal | null>(null);
  const requestId = useRef(newRequestId());
  const heading = useRef<HTMLHeadingElement>(null);
  const ids = useId();

  // Each step after the first shown starts at its heading, for a screen reader as for the eye.
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) heading.current?.focus();
    opened.current = true;
  }, [stage]);

  const own = Boolean(user) && openOrders.some((order) => order.orderId === orderId.trim());
  const selectedLines = preview ? preview.lines.filter((line) => line.withdrawable > 0 && chosen[line.position] !== false) : [];

  const fail = (caught: unknown) => {
    const field = refusedField(t, caught);
    setError({ text: errorText(t, caught), field: field?.field });
  };

  const find = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const found = await previewWithdrawal({ orderId: orderId.trim(), ...(own ? {} : { email: email.trim() }) });
      setPreview(found);
      setChosen({});
      setFullName((name) => name || found.fullName);
      setAckEmail((address) => address || (own ? found.customerEmail : email.trim()));
      setStage('details');
    } catch (caught) {
      fail(caught);
    } finally {
      setBusy(false);
    }
  };

  const review = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (selectedLines.length === 0) return setError({ text: t('withdrawalForm.errors.noLines'), field: 'lines' });
    if (fullName.trim() === '') return setError({ text: t('withdrawalForm.errors.nameRequired'), field: 'fullName' });
    if (!/^\S+@\S+\.\S+$/.test(ackEmail.trim())) return setError({ text: t('withdrawalForm.errors.emailInvalid'), field: 'acknowledgementEmail' });
    if (preview?.ibanNeeded && iban.trim() === '') return setError({ text: t('withdrawalForm.errors.withdrawal_iban_required'), field: 'iban' });
    setStage('confirm');
  };

  const confirm = async () => {
    if (!preview) return;
    setError(null);
    setBusy(true);
    try {
      const recorded = await confirmWithdrawal({
        requestId: requestId.current,
        orderId: preview.orderId,
        ...(own ? {} : { email: email.trim() }),
        lines: selectedLines.map((line) => ({ position: line.position, quantity: line.withdrawable })),
        fullName: fullName.trim(),
        acknowledgementEmail: ackEmail.trim(),
        language,
        ...(reason.trim() ? { reason: reason.trim() } : {}),
        ...(iban.trim() ? { iban: iban.trim() } : {}),
      });
      setDone(recorded);
      setStage('done');
    } catch (caught) {
      fail(caught);
      const field = refusedField(t, caught)?.field;
      if (field) setStage('details');
    } finally {
      setBusy(false);
    }
  };

  const errorFor = (field: string) =>
    error?.field === field ? (
      <p id={`${ids}-${field}-error`} className="field__error" role="alert">
        {error.text}
      </p>
    ) : null;
  const described = (field: string) => (error?.field === field ? { 'aria-invalid': true, 'aria-describedby': `${ids}-${field}-error` } : {});
  const generalError = error && !['lines', 'fullName', 'acknowledgementEmail', 'iban', 'email', 'orderId'].includes(error.field ?? '') ? (
    <p className="form-error" role="alert">
      {error.text}
    </p>
  ) : null;

  const lineNote = (line: WithdrawalLine) =>
    line.exemption ? t(`withdrawalForm.exempt.${line.exemption}`) : line.withdrawable === 0 ? t('withdrawalForm.alreadyWithdrawn') : line.sealed ? t('withdrawalForm.sealed') : null;

  return (
    <section className="withdrawal" aria-labelledby={`${ids}-title`}>
      <h1 id={`${ids}-title`} className="page-title" ref={stage === 'find' ? heading : undefined} tabIndex={-1}>
        {t('withdrawalForm.title')}
      </h1>

      {stage === 'find' && (
        <form className="withdrawal__form" onSubmit={find} noValidate>
          <p>{t('withdrawalForm.intro')}</p>
          {user && openOrders.length > 0 ? (
            <div className="field">
              <label htmlFor={`${ids}-order`}>{t('withdrawalForm.yourOrder')}</label>
              <select id={`${ids}-order`} value={orderId} onChange={(event) => setOrderId(event.target.value)} required>
                <option value="">{t('withdrawalForm.chooseOrder')}</option>
                {openOrders.map((order) => (
                  <option key={order.orderId} value={order.orderId}>
                    {t('withdrawalForm.orderOption', { orderId: order.orderId, date: formatDateTime(order.createdAt, language, '') })}
                  </option>
                ))}
              </select>
            </div>
          ) : (
            <>
              <div className="field">
                <label htmlFor={`${ids}-orderId`}>{t('withdrawalForm.orderNumber')}</label>
                <input id={`${ids}-orderId`} value={orderId} onChange={(event) => setOrderId(event.target.value)} autoComplete="off" required {...described('orderId')} />
                {errorFor('orderId')}
              </div>
              <div className="field">
                <label htmlFor={`${ids}-email`}>{t('withdrawalForm.orderEmail')}</label>
                <input id={`${ids}-email`} type="email" value={email} onChange={(event) => setEmail(event.target.value)} autoComplete="email" required {...described('email')} />
                {errorFor('email')}
              </div>
            </>
          )}
          {generalError}
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('withdrawalForm.find')}
          </button>
        </form>
      )}

      {stage === 'details' && preview && (
        <form className="withdrawal__form" onSubmit={review} noValidate>
          <h2 ref={heading} tabIndex={-1}>
            {t('withdrawalForm.detailsTitle', { orderId: preview.orderId })}
          </h2>
          {preview.deadline && <p className="muted">{t('withdrawalForm.deadline', { date: formatDateTime(preview.deadline, language, '') })}</p>}
          <fieldset className="withdrawal__lines" {...described('lines')}>
            <legend>{t('withdrawalForm.linesLegend')}</legend>
            <ul>
              {preview.lines.map((line) => {
                const note = lineNote(line);
                const id = `${ids}-line-${line.position}`;
                return (
                  <li key={line.position}>
                    <input
                      id={id}
                      type="checkbox"
                      disabled={line.withdrawable === 0}
                      checked={line.withdrawable > 0 && chosen[line.position] !== false}
                      onChange={(event) => setChosen({ ...chosen, [line.position]: event.target.checked })}
                      aria-describedby={note ? `${id}-note` : undefined}
                    />
                    <label htmlFor={id}>
                      <Localized text={line.name} /> <LinePrice line={{ priceMinor: line.priceMinor, quantity: line.withdrawable || line.quantity }} currency={preview.currency} />
                    </label>
                    {note && (
                      <span id={`${id}-note`} className="withdrawal__note">
                        {note}
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
            {errorFor('lines')}
          </fieldset>
          <div className="field">
            <label htmlFor={`${ids}-name`}>{t('withdrawalForm.fullName')}</label>
            <input id={`${ids}-name`} value={fullName} onChange={(event) => setFullName(event.target.value)} autoComplete="name" required {...described('fullName')} />
            {errorFor('fullName')}
          </div>
          <div className="field">
            <label htmlFor={`${ids}-ack`}>{t('withdrawalForm.acknowledgementEmail')}</label>
            <input id={`${ids}-ack`} type="email" value={ackEmail} onChange={(event) => setAckEmail(event.target.value)} autoComplete="email" required {...described('acknowledgementEmail')} />
            {errorFor('acknowledgementEmail')}
          </div>
          {preview.ibanNeeded && (
            <div className="field">
              <label htmlFor={`${ids}-iban`}>{t('withdrawalForm.iban')}</label>
              <input id={`${ids}-iban`} value={iban} onChange={(event) => setIban(event.target.value)} autoComplete="off" spellCheck={false} required {...described('iban')} />
              {errorFor('iban')}
            </div>
          )}
          <div className="field">
            <label htmlFor={`${ids}-reason`}>{t('withdrawalForm.reason')}</label>
            <textarea id={`${ids}-reason`} value={reason} onChange={(event) => setReason(event.target.value)} rows={3} maxLength={2000} />
          </div>
          {generalError}
          <div className="withdrawal__actions">
            <button type="button" className="button" onClick={() => setStage('find')}>
              {t('withdrawalForm.back')}
            </button>
            <button type="submit" className="button button--primary">
              {t('withdrawalForm.continue')}
            </button>
          </div>
        </form>
      )}

      {stage === 'confirm' && preview && (
        <div className="withdrawal__form">
          <h2 ref={heading} tabIndex={-1}>
            {t('withdrawalForm.confirmTitle')}
          </h2>
          <p>{t('withdrawalForm.statement', { name: fullName.trim(), orderId: preview.orderId })}</p>
          <ul className="withdrawal__summary">
            {selectedLines.map((line) => (
              <li key={line.position}>
                <Localized text={line.name} /> <LinePrice line={{ priceMinor: line.priceMinor, quantity: line.withdrawable }} currency={preview.currency} />
              </li>
            ))}
          </ul>
          <p>{t('withdrawalForm.acknowledgementTo', { email: ackEmail.trim() })}</p>
          {generalError}
          <div className="withdrawal__actions">
            <button type="button" className="button" onClick={() => setStage('details')} disabled={busy}>
              {t('withdrawalForm.back')}
            </button>
            <button type="button" className="button button--primary" onClick={() => void confirm()} disabled={busy}>
              {t('withdrawalForm.confirm')}
            </button>
          </div>
        </div>
      )}

      {stage === 'done' && done && (
        <div className="withdrawal__done" role="status">
          <h2 ref={heading} tabIndex={-1}>
            {t('withdrawalForm.doneTitle')}
          </h2>
          <p>{t('withdrawalForm.doneText', { orderId: done.orderId, date: formatDateTime(done.submittedAt, language, ''), email: done.acknowledgementEmail })}</p>
        </div>
      )}
    </section>
  );
}
