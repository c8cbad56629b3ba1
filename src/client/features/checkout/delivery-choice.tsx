import { useEffect, useId, useState, type RefObject } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { courierOf, deliveryKindOf, needsOffice, type CourierOffice, type DeliveryMethod } from '#shared/delivery.js';
import { deliveryFeeOf } from '#shared/pricing.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { OfficeText } from '#client/orders/office-text.js';
import { settings } from '#client/settings.js';
import { usePriceText } from '#client/ui/price.js';

/** How long typing pauses before the offices are searched. */
const SEARCH_PAUSE_MS = 250;

/** The courier's price for the buyer's parcel, for a method its courier prices; the order is placed at it. */
export interface DeliveryQuote {
  id: string;
  feeMinor: number;
  expiresAt: string;
}

/** Its courier prices the method for each parcel (DELIVERY_FEES=…=courier). */
export const isQuoted = (method: DeliveryMethod) => settings.pricing.quotedDeliveryMethods?.includes(method) ?? false;

const askQuote = async (method: DeliveryMethod, place: { officeId?: string; addressId?: string }, signal: AbortSignal) =>
  (await requestJson<{ quote: DeliveryQuote }>('/api/delivery/quotes', { method: 'POST', body: JSON.stringify({ method, ...place }), signal })).quote;

/**
 * The courier's price for a method it prices, asked once the parcel's place is known (the office, or the
 * saved address) and again when the cart changes (its weight does) or the quote runs out.
 */
export function useDeliveryQuote(method: DeliveryMethod, place: { officeId?: string; addressId?: string }, cartKey: string) {
  const known = needsOffice(method) ? Boolean(place.officeId) : Boolean(place.addressId);
  return useQuery({
    queryKey: queryKeys.deliveryQuote(method, place.officeId ?? place.addressId ?? '', cartKey),
    queryFn: ({ signal }) => askQuote(method, needsOffice(method) ? { officeId: place.officeId } : { addressId: place.addressId }, signal),
    enabled: isQuoted(method) && known,
    retry: false,
    // Asked again a little before the server would refuse it.
    staleTime: 25 * 60 * 1000,
    refetchInterval: 25 * 60 * 1000,
  });
}

/** The method chosen at first: the first the shop offers. */
export const initialDeliveryMethod = (): DeliveryMethod => settings.deliveryMethods[0] ?? 'address';

/** The shop offers more than its own delivery to an address, so the buyer chooses. */
export const offersDeliveryChoice = () => settings.deliveryMethods.length > 1 || settings.deliveryMethods[0] !== 'address';

interface DeliveryChoiceProps {
  method: DeliveryMethod;
  onMethod: (method: DeliveryMethod) => void;
  office: CourierOffice | null;
  onOffice: (office: CourierOffice | null) => void;
  /** The buyer pays on delivery: only offices that take the cash are offered. */
  cashOnDelivery: boolean;
  /** Why the order cannot go yet (no office chosen, say), shown under the picker. */
  error: string | null;
  searchField: RefObject<HTMLInputElement | null>;
  quote: ReturnType<typeof useDeliveryQuote>;
}

/** The checkout's delivery: the shop's methods with their fees and, for an office or a locker, the picker. */
export function DeliveryChoice({ method, onMethod, office, onOffice, cashOnDelivery, error, searchField, quote }: DeliveryChoiceProps) {
  const { t } = useTranslation();
  const priceText = usePriceText();
  return (
    <fieldset className="choice-list">
      <legend className="panel__title">{t('checkout.delivery.title')}</legend>
      {settings.deliveryMethods.map((offered) => (
        <label key={offered} className="choice">
          <input
            type="radio"
            name="delivery-method"
            value={offered}
            checked={method === offered}
            onChange={() => {
              onMethod(offered);
              onOffice(null);
            }}
          />
          <span>
            <strong>{t(`orders.delivery.methods.${offered}`)}</strong>{' '}
            <span className="delivery-fee">
              {isQuoted(offered)
                ? offered === method && quote.data
                  ? priceText(quote.data.feeMinor)
                  : t('checkout.delivery.quoted', { courier: t(`orders.delivery.couriers.${courierOf(offered)}`) })
                : priceText(deliveryFeeOf(settings.pricing, offered))}
            </span>
            <br />
            <span className="muted">{t(`checkout.delivery.hints.${deliveryKindOf(offered)}`)}</span>
          </span>
        </label>
      ))}
      {needsOffice(method) && <OfficePicker key={method} method={method} office={office} onOffice={onOffice} cashOnDelivery={cashOnDelivery} error={error} searchField={searchField} />}
      {isQuoted(method) && <QuoteStatus method={method} placeChosen={needsOffice(method) ? office !== null : true} quote={quote} />}
    </fieldset>
  );
}

/** Where the courier's price stands: asked, given, or not to be had (with a retry), announced politely. */
function QuoteStatus({ method, placeChosen, quote }: { method: DeliveryMethod; placeChosen: boolean; quote: ReturnType<typeof useDeliveryQuote> }) {
  const { t } = useTranslation();
  const priceText = usePriceText();
  const courier = t(`orders.delivery.couriers.${courierOf(method)}`);
  const text = !placeChosen
    ? t('checkout.delivery.quoteNeedsPlace', { courier })
    : quote.isError
      ? t('checkout.delivery.quoteFailed', { courier, message: errorText(t, quote.error) })
      : quote.data
        ? t('checkout.delivery.quotedFee', { courier, fee: priceText(quote.data.feeMinor) })
        : t('checkout.delivery.quoting', { courier });
  return (
    <div className="delivery-quote">
      <p className={quote.isError ? 'form-error' : 'muted'} role="status" aria-live="polite">
        {text}
      </p>
      {quote.isError && (
        <button type="button" className="button" onClick={() => void quote.refetch()}>
          {t('common.tryAgain')}
        </button>
      )}
    </div>
  );
}

const searchOffices = async (method: DeliveryMethod, query: string, cashOnDelivery: boolean, signal: AbortSignal) => {
  const parameters = new URLSearchParams({ courier: courierOf(method)!, kind: deliveryKindOf(method), q: query, cod: cashOnDelivery ? '1' : '0' });
  return (await requestJson<{ offices: CourierOffice[] }>(`/api/delivery/offices?${parameters}`, { signal })).offices;
};

/** The typed text once typing has paused. */
function usePaused(text: string): string {
  const [paused, setPaused] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setPaused(text), SEARCH_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return paused;
}

/**
 * The search for an office or locker: what the buyer types is searched as she pauses, in either
 * script, and the places found are a group of radios (arrows move between them and choose, as a
 * screen reader announces them), each with its address and hours. How many were found is announced
 * politely; the place chosen stays shown above the search while she looks further.
 */
function OfficePicker({ method, office, onOffice, cashOnDelivery, error, searchField }: Omit<DeliveryChoiceProps, 'onMethod' | 'quote'>) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const query = usePaused(typed.trim());
  const ids = useId();
  const locker = deliveryKindOf(method) === 'locker';
  const searchable = query.length >= 2;
  const found = useQuery({
    queryKey: queryKeys.offices(method, query, cashOnDelivery),
    queryFn: ({ signal }) => searchOffices(method, query, cashOnDelivery, signal),
    enabled: searchable,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
  const offices = searchable ? (found.data ?? []) : [];
  const status = !searchable
    ? typed.trim().length > 0
      ? t('checkout.delivery.typeMore')
      : ''
    : found.isError
      ? t('checkout.delivery.loadError')
      : found.isFetching && !found.data
        ? t('checkout.delivery.searching')
        : offices.length === 0
          ? t('checkout.delivery.noneFound')
          : t('checkout.delivery.found', { count: offices.length });
  const officeFits = !office || !cashOnDelivery || office.acceptsCashOnDelivery;

  return (
    <div className="office-picker">
      {office && (
        <div className="office-chosen">
          <p className="muted">{t('checkout.delivery.chosen')}</p>
          <OfficeText office={office} />
          {!officeFits && (
            <p className="form-error" role="alert">
              {t('checkout.delivery.officeNoCod')}
            </p>
          )}
        </div>
      )}
      <div className="field">
        <label className="field__label" htmlFor={`${ids}-search`}>
          {t(locker ? 'checkout.delivery.searchLabelLocker' : 'checkout.delivery.searchLabel')}
        </label>
        <input
          ref={searchField}
          id={`${ids}-search`}
          type="search"
          className="field__input"
          autoComplete="off"
          placeholder={t('checkout.delivery.searchPlaceholder')}
          value={typed}
          maxLength={60}
          aria-describedby={`${ids}-hint ${ids}-status${error ? ` ${ids}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={(event) => setTyped(event.target.value)}
        />
        <p id={`${ids}-hint`} className="field__hint">
          {t('checkout.delivery.searchHint')}
        </p>
      </div>
      <p id={`${ids}-status`} className="muted" role="status" aria-live="polite">
        {status}
      </p>
      {found.isError && (
        <button type="button" className="button" onClick={() => void found.refetch()}>
          {t('common.tryAgain')}
        </button>
      )}
      {error && (
        <p id={`${ids}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
      {offices.length > 0 && (
        <fieldset className="office-list">
          <legend className="visually-hidden">{t(locker ? 'checkout.delivery.resultsLocker' : 'checkout.delivery.results')}</legend>
          {offices.map((candidate) => (
            <label key={candidate.id} className="choice office-list__item">
              <input type="radio" name={`${ids}-office`} value={candidate.id} checked={candidate.id === office?.id} onChange={() => onOffice(candidate)} />
              <OfficeText office={candidate} />
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}
