import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { pickText } from '#shared/catalog.js';
import { productPath } from '#shared/routes.js';
import type { SimilarPieceRequest, SimilarPieceRequestList } from '#shared/similar-pieces.js';
import { errorText } from '#client/api/error-text.js';
import { requestJson } from '#client/api/http.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { LoadErrorMessage, LoadingMessage } from '#client/ui/state-message.js';

const key = 'admin.requests.';
const requestsKey = ['admin', 'similar-requests'] as const;

/** Buyers' requests for pieces like sold-out ones ("make me a similar one"), newest first, until answered. */
export default function SimilarRequestsPanel({ onToast }: { onToast(toast: { message: string; kind: 'success' | 'error' }): void }) {
  const { t } = useTranslation();
  const requests = useQuery({ queryKey: requestsKey, queryFn: () => requestJson<SimilarPieceRequestList>('/api/admin/similar-requests'), staleTime: 0 });

  if (requests.isPending) return <LoadingMessage>{t(`${key}loading`)}</LoadingMessage>;
  if (requests.isError) return <LoadErrorMessage message={t(`${key}loadError`)} onRetry={requests.refetch} />;
  return (
    <section className="similar-requests" aria-labelledby="similar-requests-title">
      <h2 id="similar-requests-title" className="section-title">
        {t(`${key}title`)}
      </h2>
      <p className="field__hint">{t(`${key}intro`)}</p>
      {requests.data.requests.length === 0 ? (
        <p className="state-message">{t(`${key}empty`)}</p>
      ) : (
        <ul className="similar-requests__list" aria-label={t(`${key}listLabel`)}>
          {requests.data.requests.map((request) => (
            <RequestItem key={request.id} request={request} onToast={onToast} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RequestItem({ request, onToast }: { request: SimilarPieceRequest; onToast(toast: { message: string; kind: 'success' | 'error' }): void }) {
  const { t, language } = useTranslation();
  const queryClient = useQueryClient();
  const [saving, setSaving] = useState(false);
  const name = pickText(request.productName, language).text;

  const markHandled = async () => {
    setSaving(true);
    try {
      await requestJson(`/api/admin/similar-requests/${request.id}/handled`, { method: 'POST' });
      queryClient.setQueryData<SimilarPieceRequestList>(requestsKey, (list) => list && { requests: list.requests.filter((other) => other.id !== request.id) });
      onToast({ message: t(`${key}handledDone`), kind: 'success' });
    } catch (failure) {
      onToast({ message: errorText(t, failure), kind: 'error' });
      setSaving(false);
    }
  };

  return (
    <li className="similar-requests__item">
      <h3 className="similar-requests__product">
        {request.productSlug ? <Link href={productPath(request.productSlug)}>{name}</Link> : t(`${key}deletedProduct`, { name })}
      </h3>
      <dl className="similar-requests__details">
        <dt>{t(`${key}email`)}</dt>
        <dd>
          <a href={`mailto:${request.email}`}>{request.email}</a>
        </dd>
        <dt>{t(`${key}received`)}</dt>
        <dd>{formatDateTime(request.createdAt, language, '')}</dd>
        <dt>{t(`${key}language`)}</dt>
        <dd>{t(`language.${request.language}`)}</dd>
        <dt>{t(`${key}note`)}</dt>
        <dd className="similar-requests__note">{request.note || t(`${key}noNote`)}</dd>
      </dl>
      <button type="button" className="button" disabled={saving} aria-label={t(`${key}handledLabel`, { email: request.email })} onClick={() => void markHandled()}>
        {t(`${key}handled`)}
      </button>
    </li>
  );
}
