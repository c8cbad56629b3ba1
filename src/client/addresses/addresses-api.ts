import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Address, AddressInput } from '#shared/addresses.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';

type AddressesResponse = { addresses: Address[] };

export function useAddresses(enabled = true) {
  return useQuery({
    queryKey: queryKeys.addresses(),
    queryFn: async () => (await requestJson<AddressesResponse>('/api/addresses')).addresses,
    enabled,
  });
}

/** Every change answers with the whole new list, which replaces the cached one. */
function useAddressChange<Variables>(send: (variables: Variables) => Promise<AddressesResponse>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: ({ addresses }) => queryClient.setQueryData(queryKeys.addresses(), addresses),
  });
}

export const useCreateAddress = () =>
  useAddressChange((input: AddressInput) => requestJson<AddressesResponse>('/api/addresses', { method: 'POST', body: JSON.stringify(input) }));

export const useUpdateAddress = () =>
  useAddressChange(({ id, input }: { id: string; input: AddressInput }) =>
    requestJson<AddressesResponse>(`/api/addresses/${encodeURIComponent(id)}`, { method: 'PUT', body: JSON.stringify(input) }),
  );

export const useDeleteAddress = () =>
  useAddressChange((id: string) => requestJson<AddressesResponse>(`/api/addresses/${encodeURIComponent(id)}`, { method: 'DELETE' }));

export const useSetDefaultAddress = () =>
  useAddressChange((id: string) => requestJson<AddressesResponse>(`/api/addresses/${encodeURIComponent(id)}/default`, { method: 'POST' }));
