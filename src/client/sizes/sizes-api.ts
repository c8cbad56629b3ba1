import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_NAIL_SIZE_CHART, type NailSizeChart, type NailSizes } from '#shared/nail-sizes.js';
import { requestJson } from '#client/api/http.js';

// Kept apart from the catalogue's and the cart's keys: neither a product change nor a cart change touches them.
const sizeChartKey = ['size-chart'] as const;
const savedSizesKey = (email: string | null) => ['nail-sizes', email] as const;

/** The shop's size chart; until it arrives (or when it cannot), the chart every shop starts with. */
export function useSizeChart(): NailSizeChart {
  const chart = useQuery({
    queryKey: sizeChartKey,
    queryFn: () => requestJson<NailSizeChart>('/api/size-chart'),
    staleTime: 5 * 60_000,
    networkMode: 'offlineFirst',
  });
  return chart.data ?? DEFAULT_NAIL_SIZE_CHART;
}

/** The signed-in buyer's saved sizes (null: none saved); not asked while nobody is signed in. */
export function useSavedNailSizes(email: string | null) {
  return useQuery({
    queryKey: savedSizesKey(email),
    enabled: email !== null,
    queryFn: async () => (await requestJson<{ sizes: NailSizes | null }>('/api/account/nail-sizes')).sizes,
    staleTime: 60_000,
  });
}

/** Saves (or, with null, clears) the buyer's sizes; the server checks them against the chart. */
export function useSaveNailSizes(email: string | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sizes: NailSizes | null) =>
      requestJson<{ sizes: NailSizes | null }>('/api/account/nail-sizes', { method: 'PUT', body: JSON.stringify({ sizes }) }),
    onSuccess: ({ sizes }) => queryClient.setQueryData(savedSizesKey(email), sizes),
  });
}
