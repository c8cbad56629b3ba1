import { useId, useState } from 'react';
import { useTranslation } from '#client/i18n/i18n.js';
import { downloadFile } from './download-file.js';

/** Last month in Sofia (yyyy-mm): the month whose files are filed now. */
function lastMonth(): string {
  const [year, month] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Sofia', year: 'numeric', month: '2-digit' }).format(new Date()).split('-').map(Number) as [number, number];
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const download = async (file: (typeof FILES)[number]) => {
    setBusy(true);
    setError(null);
    try {
      const result = await downloadFile(`${file.path}?month=${encodeURIComponent(month)}`, file.fileName(month));
      if (!result.saved) setError(result.messageKey ? t(result.messageKey, { month }) : t('admin.monthlyFiles.errors.failed'));
    } catch {
      setError(t('admin.monthlyFiles.errors.failed'));
    } finally {
      setBusy(false);
    }
  };

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
          <button key={file.name} type="button" className="button" disabled={busy || !month} onClick={() => void download(file)}>
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
