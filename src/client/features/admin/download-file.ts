import type { ApiErrorBody } from '#shared/api-errors.js';

/**
 * Fetches a file the server makes on demand and saves it under the name; when the server refuses,
 * nothing is saved and its message key (if any) is returned, so that the refusal is said in words
 * rather than saved as a file. A network failure throws.
 */
export async function downloadFile(path: string, fileName: string): Promise<{ saved: true } | { saved: false; messageKey: string | undefined }> {
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
