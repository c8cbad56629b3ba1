import { useQuery } from '@tanstack/react-query';
import type { CatalogueResponse } from '../../../shared/catalog.js';
import { CATALOGUE_TOPIC } from '../../../shared/live.js';
import { requestJson } from '../../api/http.js';

/** The live channel names the catalogue by this key, and refreshes it on every product change. */
export const PRODUCTS_QUERY_KEY = [CATALOGUE_TOPIC] as const;

const selectProducts = (catalogue: CatalogueResponse) => catalogue.products;

export function useProducts() {
  return useQuery({
    queryKey: PRODUCTS_QUERY_KEY,
    // The whole answer is kept, with its version, so that the live channel can tell whether it missed a change.
    queryFn: () => requestJson<CatalogueResponse>('/api/products'),
    select: selectProducts,
    staleTime: 30_000,
    // Asked even offline: the service worker answers with the catalogue it last saw.
    networkMode: 'offlineFirst',
  });
}
