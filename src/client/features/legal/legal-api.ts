import { useQuery } from '@tanstack/react-query';
import type { LegalPage, LegalPageResponse } from '#shared/legal.js';
import { requestJson } from '#client/api/http.js';
import { queryKeys } from '#client/api/query-keys.js';
import type { Language } from '#client/i18n/texts.js';

/** A legal page in the page's language, rendered by the server. */
export function useLegalPage(page: LegalPage, language: Language) {
  return useQuery({
    queryKey: queryKeys.legalPage(page, language),
    queryFn: () => requestJson<LegalPageResponse>(`/api/legal/${page}?lang=${language}`),
    // The owner may change a page at any time, but not while someone reads it.
    staleTime: 5 * 60_000,
  });
}
