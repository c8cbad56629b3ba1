import { useState } from 'react';
import type { ApiErrorBody } from '#shared/api-errors.js';
import { useTranslation } from '#client/i18n/i18n.js';

/**
 * Fetches a file the server makes on demand and saves it under the name; when the server refuses,
 * nothing is saved and its message key (if any) is returned, so that the refusal is said in words
 * rather than saved as a file. A network failure throws.
 */
async function downloadFile(path: string, fileName: string): Promise<{ saved: true } | { saved: false; messageKey: string | undefined }> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as ApiErrorBody | null;
    return { saved: false, messageKey: body?.error.messageKey };
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
  return { saved: true };
}

/**
 * A download from the admin's files: whether one is under way, and the refusal or failure of the
 * last, in the admin's language (the server's message key with `values`, else `failed`).
 */
export function useFileDownload(failed: string) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const download = async (path: string, fileName: string, values?: Record<string, string>) => {
    setBusy(true);
    setError(null);
    try {
      const result = await downloadFile(path, fileName);
      if (!result.saved) setError(t(result.messageKey ?? failed, values));
    } catch {
      setError(t(failed));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, download };
}
