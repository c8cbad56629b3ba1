import { useId, useState } from 'react';
import { sofiaDate } from '#shared/sofia-time.js';
import { useTranslation } from '#client/i18n/i18n.js';
import { useFileDownload } from './download-file.js';

/** Today in Sofia (yyyy-mm-dd), and the first day of its month. */
function thisMonthSoFar(): { from: string; to: string } {
  const today = sofiaDate(new Date());
  return { from: `${today.slice(0, 8)}01`, to: today };
}

/**
 * The orders of a period as a spreadsheet for the accountant, in the admin's language (with a
 * Bulgarian Excel's separators in Bulgarian). Fetched first, so that a period the server refuses is
 * said in words instead of saved as a file.
 */
export function OrdersExport() {
  const { t, language } = useTranslation();
  const id = useId();
  const [period, setPeriod] = useState(thisMonthSoFar);
  const { busy, error, download } = useFileDownload('admin.ordersExport.errors.failed');
  const query = new URLSearchParams({ ...period, language });

  return (
    <details className="admin-files">
      <summary>{t('admin.ordersExport.title')}</summary>
      <div className="toolbar">
        {(['from', 'to'] as const).map((end) => (
          <div className="field field--inline" key={end}>
            <label className="field__label" htmlFor={`${id}-${end}`}>
              {t(`admin.ordersExport.${end}`)}
            </label>
            <input id={`${id}-${end}`} className="field__input" type="date" value={period[end]} onChange={(event) => setPeriod({ ...period, [end]: event.target.value })} required />
          </div>
        ))}
        <button type="button" className="button" disabled={busy || !period.from || !period.to} onClick={() => void download(`/api/admin/orders-export?${query.toString()}`, `orders-${period.from}-${period.to}.csv`)}>
          {t('admin.ordersExport.download')}
        </button>
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
