import { useId, useState } from 'react';
import type { ApiErrorBody } from '#shared/api-errors.js';
import { useTranslation } from '#client/i18n/i18n.js';

/** What the server did (or, in a dry run, would do) with an uploaded file. */
interface ImportReport {
  dryRun: boolean;
  counts: { products: { created: number; updated: number; unchanged: number; skipped: number } };
  problems: Array<{ collection: string; id: string; field: string; message: string }>;
}

type Format = '' | 'shopify' | 'woocommerce';

/**
 * The catalogue out as Shopify's product CSV, and another shop's product CSV in: the file is first
 * checked (a dry run that writes nothing and says what an import would do, with every problem), and
 * imported only when the admin confirms. The problems are the server's words, in English, as the
 * command prints them: they name the file's columns.
 */
export function ProductCsv({ onImported }: { onImported(): void }) {
  const { t } = useTranslation();
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<Format>('');
  const [report, setReport] = useState<ImportReport | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const send = async (dryRun: boolean) => {
    if (!file) return setError(t('admin.productCsv.errors.noFile'));
    setBusy(true);
    setError(null);
    try {
      const body = new FormData();
      body.append('file', file);
      const query = new URLSearchParams({ dryRun: String(dryRun), ...(format ? { format } : {}) });
      const response = await fetch(`/api/admin/products/import?${query.toString()}`, { method: 'POST', body, credentials: 'same-origin' });
      if (!response.ok) {
        const answer = (await response.json().catch(() => null)) as ApiErrorBody | null;
        setReport(null);
        setError(t(response.status === 413 ? 'admin.productCsv.errors.tooLarge' : (answer?.error.messageKey ?? 'admin.productCsv.errors.failed')));
        return;
      }
      setReport(((await response.json()) as { report: ImportReport }).report);
      if (!dryRun) onImported();
    } catch {
      setError(t('admin.productCsv.errors.failed'));
    } finally {
      setBusy(false);
    }
  };

  const counts = report?.counts.products;
  return (
    <details className="admin-files">
      <summary>{t('admin.productCsv.title')}</summary>
      <p>
        <a className="button" href="/api/admin/products/export" download="products.csv">
          {t('admin.productCsv.export')}
        </a>
      </p>
      <div className="toolbar">
        <div className="field field--inline">
          <label className="field__label" htmlFor={`${id}-file`}>
            {t('admin.productCsv.file')}
          </label>
          <input
            id={`${id}-file`}
            className="field__input"
            type="file"
            accept=".csv,text/csv"
            onChange={(event) => {
              setFile(event.target.files?.[0] ?? null);
              setReport(null);
            }}
          />
        </div>
        <div className="field field--inline">
          <label className="field__label" htmlFor={`${id}-format`}>
            {t('admin.productCsv.format')}
          </label>
          <select id={`${id}-format`} className="field__input" value={format} onChange={(event) => setFormat(event.target.value as Format)}>
            <option value="">{t('admin.productCsv.formats.auto')}</option>
            <option value="shopify">Shopify</option>
            <option value="woocommerce">WooCommerce</option>
          </select>
        </div>
        <button type="button" className="button" disabled={busy || !file} onClick={() => void send(true)}>
          {t('admin.productCsv.check')}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {report && counts && (
        <div className="import-report" role="status">
          <p>{t(report.dryRun ? 'admin.productCsv.wouldDo' : 'admin.productCsv.done', counts)}</p>
          {report.problems.length > 0 && (
            <>
              <p>{t('admin.productCsv.problems', { count: report.problems.length })}</p>
              <ul lang="en">
                {report.problems.map((problem, index) => (
                  <li key={index}>
                    {[problem.id, problem.field].filter(Boolean).join(' / ')}: {problem.message}
                  </li>
                ))}
              </ul>
            </>
          )}
          {report.dryRun && counts.created + counts.updated > 0 && (
            <button type="button" className="button button--primary" disabled={busy} onClick={() => void send(false)}>
              {t('admin.productCsv.import')}
            </button>
          )}
        </div>
      )}
    </details>
  );
}
