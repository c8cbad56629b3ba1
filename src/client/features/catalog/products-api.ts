import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { catalogueQueryParams, type CatalogueQuery, type CatalogueResponse, type ProductPageResponse } from '#shared/catalog.js';
import { productPageDataPath } from '#shared/routes.js';
import { ApiError, requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import type { Language } from '#client/i18n/texts.js';

/** A page of the catalogue, filtered, searched and sorted by the server; names sort in the page's language. */
export function useProducts(query: CatalogueQuery, language: Language) {
  const params = catalogueQueryParams(query);
  // Names sort in the page's language; English is the server's default, so the plain catalogue keeps one address.
  if (query.sort === 'name' && language !== 'en') params.set('lang', language);
  const search = params.toString();
  return useQuery({
    queryKey: queryKeys.productList(search),
    queryFn: () => requestJson<CatalogueResponse>(`/api/products${search ? `?${search}` : ''}`),
    staleTime: 30_000,
    // A new filter shows the products before it until its own arrive, instead of a blank page.
    placeholderData: keepPreviousData,
    // Asked even offline: the service worker answers with the catalogue it last saw.
    networkMode: 'offlineFirst',
  });
}

/** A product page's data; null when there is no such product. */
export function useProductPage(slug: string) {
  return useQuery({
    queryKey: queryKeys.product(slug),
    queryFn: async () => {
      try {
        return await requestJson<ProductPageResponse>(productPageDataPath(slug));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 30_000,
    networkMode: 'offlineFirst',
  });
}
