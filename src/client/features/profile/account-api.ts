import { useMutation } from '@tanstack/react-query';
import { accountDataFileName, type AccountExport, type DeleteAccountRequest } from '#shared/account.js';
import { requestJson } from '#client/api/http.js';

/** Saves the text as a file through a temporary link, as a download of the page's own making. */
function saveFile(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the browser has taken the file; at once, some browsers would cancel the download.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Asks for the customer's copy of their data and saves it as nail-art-atelier-data-<day>.json. */
export function useDownloadAccountData() {
  return useMutation({
    // Offline it fails at once with the network's message, rather than waiting unseen for the connection.
    networkMode: 'always',
    mutationFn: async () => {
      const data = await requestJson<AccountExport>('/api/account/export');
      saveFile(accountDataFileName(data.exportedAt), `${JSON.stringify(data, null, 2)}\n`);
    },
  });
}

/**
 * Deletes the account, confirmed by its e-mail; the server ends every session of it. onDeleted runs
 * even when the page has gone meanwhile (the ended session can sign the page out before the answer
 * arrives), which a callback given to mutate() would not.
 */
export function useDeleteAccount(onDeleted: () => Promise<void>) {
  return useMutation({
    // Never paused for the connection and sent later: the customer is told at once that it failed.
    networkMode: 'always',
    mutationFn: (request: DeleteAccountRequest) => requestJson<null>('/api/account', { method: 'DELETE', body: JSON.stringify(request) }),
    onSuccess: onDeleted,
  });
}
