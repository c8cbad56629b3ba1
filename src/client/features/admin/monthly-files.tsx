import { useId, useState } from 'react';
import { sofiaDate } from '#shared/sofia-time.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useFileDownload } from './download-file.js';

/** Last month in Sofia (yyyy-mm): the month whose files are filed now. */
function lastMonth(): string {
  const [year, month] = sofiaDate(new Date()).split('-').map(Number) as [number, number];
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

const FILES = [
  { name: 'auditFile', path: '/api/admin/audit-file', fileName: (month: string) => `nra-audit-${month}.xml` },
  { name: 'accounting', path: '/api/admin/accounting-export', fileName: (month: string) => `accounting-${month}.csv` },
] as const;

/**
 * A month's files for the revenue agency and the accountant: the Н-18 audit file and the CSV of
 * invoices, credit notes and payments. Each is fetched first, so that a month that cannot have one
 * (no order paid) is said in words instead of saved as a file.
 */
export function MonthlyFiles() {
  const { t } = useTranslation();
  const id = useId();
  const [month, setMonth] = useState(lastMonth);
  const { busy, error, download } = useFileDownload('admin.monthlyFiles.errors.failed');

  return (
    <details className="admin-files">
      <summary>{t('admin.monthlyFiles.title')}</summary>
      <div className="toolbar">
        <div className="field field--inline">
          <label className="field__label" htmlFor={`${id}-month`}>
            {t('admin.monthlyFiles.month')}
          </label>
          <input id={`${id}-month`} className="field__input" type="month" value={month} onChange={(event) => setMonth(event.target.value)} required />
        </div>
        {FILES.map((file) => (
          <button key={file.name} type="button" className="button" disabled={busy || !month} onClick={() => void download(`${file.path}?month=${encodeURIComponent(month)}`, file.fileName(month), { month })}>
            {t(`admin.monthlyFiles.${file.name}`)}
          </button>
        ))}
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
