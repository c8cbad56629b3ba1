import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { AdminOrderDetail, AdminOrderPage } from '#shared/admin.js';
import type { ChangeOrderStatusRequest } from '#shared/admin-order-schemas.js';
import type { Product } from '#shared/catalog.js';
import type { SearchSynonyms } from '#shared/catalog-schemas.js';
import type { OrderStatus } from '#shared/order-status.js';
import type { PhotoOrderInput } from '#shared/photo-schemas.js';
import type { NailSizeChart } from '#shared/nail-sizes.js';
import type { StockChange, StockFilter } from '#shared/stock.js';
import type { WORK_LIST_STATUSES, WorkListResponse } from '#shared/work-list.js';
import type { ApiErrorBody } from '#shared/api-errors.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import { mailPollInterval } from './order-mail-state.js';

export type WorkListStatus = (typeof WORK_LIST_STATUSES)[number];

/** Asks the server again, since the session's admin flag may be older than a removal from the admins table. */
export const useAdminAccess = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.adminAccess(), queryFn: () => requestJson<{ admin: true }>('/api/admin/access'), retry: false, staleTime: 0, enabled });

/** Tells the server the language this admin uses the dashboard in, for their new-order notices. */
export async function rememberAdminLanguage(language: string): Promise<void> {
  await requestJson<null>('/api/admin/language', { method: 'PUT', body: JSON.stringify({ language }) });
}

/** The table is sorted by the names in the admin's language. */
export const useAdminProducts = (stock: StockFilter | '', language: string) =>
  useQuery({
    queryKey: queryKeys.adminProductList(stock, language),
    queryFn: async () => (await requestJson<{ products: Product[] }>(`/api/admin/products?${new URLSearchParams({ ...(stock && { stock }), lang: language })}`)).products,
    placeholderData: (previous) => previous,
  });

export const useStockHistory = (productId: string) =>
  useQuery({
    queryKey: queryKeys.stockHistory(productId),
    queryFn: async () => (await requestJson<{ stockChanges: StockChange[] }>(`/api/admin/products/${encodeURIComponent(productId)}/stock-changes`)).stockChanges,
  });

export interface OrderFilter {
  status: OrderStatus | '';
  search: string;
  /** The page after (older than) or before (newer than) this cursor, from the server's nextCursor or previousCursor; both empty for the first page. */
  after: string;
  before: string;
}

export function useAdminOrders(filter: OrderFilter) {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.search) params.set('q', filter.search);
  if (filter.after) params.set('after', filter.after);
  else if (filter.before) params.set('before', filter.before);
  return useQuery({
    queryKey: queryKeys.adminOrderPage(filter),
    queryFn: () => requestJson<AdminOrderPage>(`/api/admin/orders?${params}`),
    placeholderData: (previous) => previous,
  });
}

/** The order with the stock changes it made and the e-mails it caused. */
export const useAdminOrder = (orderId: string) =>
  useQuery({
    queryKey: queryKeys.adminOrder(orderId),
    queryFn: () => requestJson<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderId)}`),
    refetchInterval: (query) => mailPollInterval(query.state.data?.mails ?? []),
  });

export function changeStatus(orderId: string, change: ChangeOrderStatusRequest): Promise<AdminOrderDetail> {
  return requestJson<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderId)}/status`, { method: 'PATCH', body: JSON.stringify(change) });
}

/** Records the buyer's bank transfer of what the order leaves due; the order is then paid. */
export function recordBankTransfer(orderId: string): Promise<AdminOrderDetail> {
  return requestJson<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderId)}/bank-transfer`, { method: 'POST' });
}

/** Records the cash the courier collected for a cash-on-delivery order; the order is then delivered too. */
export function recordCashPayment(orderId: string): Promise<AdminOrderDetail> {
  return requestJson<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderId)}/cash-payment`, { method: 'POST' });
}

/** Queues a new copy of one of the order's e-mails; the answer lists it last. */
export function resendMail(orderId: string, mailId: string): Promise<AdminOrderDetail> {
  return requestJson<AdminOrderDetail>(`/api/admin/orders/${encodeURIComponent(orderId)}/mails/${encodeURIComponent(mailId)}/resend`, { method: 'POST' });
}

export async function deleteProduct(id: string): Promise<void> {
  await requestJson<null>(`/api/admin/products/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

/** Sends a form by XMLHttpRequest, reporting upload progress (fetch cannot), and answers with the product the server returns. */
function sendForm(method: 'POST' | 'PUT', url: string, form: FormData, onProgress: (percent: number) => void): Promise<Product> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.responseType = 'json';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      const body = request.response as { product?: Product; error?: ApiErrorBody['error'] } | null;
      if (request.status >= 200 && request.status < 300 && body?.product) return resolve(body.product);
      const { code = 'internal', message = request.statusText, ...details } = body?.error ?? {};
      reject(new ApiError(request.status, code, message, details));
    };
    request.onerror = () => reject(new ApiError(0, 'network', 'Network error'));
    request.send(form);
  });
}

const productUrl = (id: string) => `/api/admin/products/${encodeURIComponent(id)}`;

/** Sends the product form (a new product with its first photo, or an edited one without), reporting upload progress. */
export function saveProduct(form: FormData, id: string | null, onProgress: (percent: number) => void): Promise<Product> {
  return id ? sendForm('PUT', productUrl(id), form, onProgress) : sendForm('POST', '/api/admin/products', form, onProgress);
}

/** Uploads one photo, added after the product's others; one file per request, so that each shows its own progress. */
export function uploadPhoto(productId: string, file: File, onProgress: (percent: number) => void): Promise<Product> {
  const form = new FormData();
  form.set('image', file);
  return sendForm('POST', `${productUrl(productId)}/photos`, form, onProgress);
}

export async function removePhoto(productId: string, photoId: string): Promise<Product> {
  return (await requestJson<{ product: Product }>(`${productUrl(productId)}/photos/${encodeURIComponent(photoId)}`, { method: 'DELETE' })).product;
}

/** Puts every photo of the product in this order (the first is the cover) with its alt texts. */
export async function arrangePhotos(productId: string, photos: PhotoOrderInput['photos']): Promise<Product> {
  return (await requestJson<{ product: Product }>(`${productUrl(productId)}/photos`, { method: 'PUT', body: JSON.stringify({ photos }) })).product;
}

/** The maker's work list: open orders' lines, soonest due first; under the admin's orders, so that a status changed there refreshes it. */
export const useWorkList = (status: WorkListStatus | '') =>
  useQuery({
    queryKey: [...queryKeys.adminOrders(), 'work-list', status] as const,
    queryFn: async () => (await requestJson<WorkListResponse>(`/api/admin/work-list${status ? `?${new URLSearchParams({ status })}` : ''}`)).lines,
    placeholderData: (previous) => previous,
  });

const synonymsKey = ['admin', 'search-synonyms'] as const;

/** The admin's search synonyms. */
export const useSearchSynonyms = () => useQuery({ queryKey: synonymsKey, queryFn: () => requestJson<SearchSynonyms>('/api/admin/search-synonyms'), staleTime: 0 });

/** Saves the synonyms whole; the server's answer becomes the one the editor shows. */
export async function saveSearchSynonyms(synonyms: SearchSynonyms, queryClient: QueryClient): Promise<SearchSynonyms> {
  const saved = await requestJson<SearchSynonyms>('/api/admin/search-synonyms', { method: 'PUT', body: JSON.stringify(synonyms) });
  queryClient.setQueryData(synonymsKey, saved);
  return saved;
}

const sizeChartKey = ['size-chart'] as const;

/** The shop's size chart as buyers see it (the default until the admin saves one). */
export const useSizeChart = () => useQuery({ queryKey: sizeChartKey, queryFn: () => requestJson<NailSizeChart>('/api/size-chart'), staleTime: 0 });

const isChart = (value: unknown): value is NailSizeChart => typeof value === 'object' && value !== null && Array.isArray((value as NailSizeChart).sizes);

/** Saves the whole chart; the chart the server answers with (the one sent, if it answers without) becomes the one every view shows. */
export async function saveSizeChart(chart: NailSizeChart, queryClient: QueryClient): Promise<NailSizeChart> {
  const answer = await requestJson<unknown>('/api/admin/size-chart', { method: 'PUT', body: JSON.stringify(chart) });
  const nested = typeof answer === 'object' && answer !== null ? (answer as { chart?: unknown }).chart : undefined;
  const stored = isChart(answer) ? answer : isChart(nested) ? nested : chart;
  queryClient.setQueryData(sizeChartKey, stored);
  return stored;
}
