import { useQuery } from '@tanstack/react-query';
import type { Product } from '../../../shared/catalog.js';
import { requestJson } from '../../api/http.js';

export const PRODUCTS_QUERY_KEY = ['products'] as const;

export function useProducts() {
  return useQuery({
    queryKey: PRODUCTS_QUERY_KEY,
    queryFn: async () => (await requestJson<{ products: Product[] }>('/api/products')).products,
    staleTime: 30_000,
    // Asked even offline: the service worker answers with the catalogue it last saw.
    networkMode: 'offlineFirst',
  });
}
