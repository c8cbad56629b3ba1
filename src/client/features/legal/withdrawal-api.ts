import type { Withdrawal, WithdrawalConfirmRequest, WithdrawalPreview, WithdrawalPreviewRequest } from '#shared/withdrawals.js';
import { requestJson } from '#client/api/http.js';

export async function previewWithdrawal(request: WithdrawalPreviewRequest): Promise<WithdrawalPreview> {
  return (await requestJson<{ preview: WithdrawalPreview }>('/api/withdrawals/preview', { method: 'POST', body: JSON.stringify(request) })).preview;
}

export async function confirmWithdrawal(request: WithdrawalConfirmRequest): Promise<Withdrawal> {
  return (await requestJson<{ withdrawal: Withdrawal }>('/api/withdrawals', { method: 'POST', body: JSON.stringify(request) })).withdrawal;
}
