import { cataloguePath } from '#shared/routes.js';

/**
 * The catalogue view (category, search, sort, page) last shown in this tab, so that a product page's
 * "Back to the shop" returns to it. Kept for the tab only, like the browser's own history.
 */
const CATALOGUE_VIEW_KEY = 'catalogue_view';

export function rememberCatalogueView(search: string): void {
  try {
    sessionStorage.setItem(CATALOGUE_VIEW_KEY, search);
  } catch {
    // Storage may be disabled; the link then leads to the whole catalogue.
  }
}

/** The address of the catalogue view last shown, or the home page. */
export function lastCatalogueView(): string {
  try {
    return cataloguePath(sessionStorage.getItem(CATALOGUE_VIEW_KEY) ?? '');
  } catch {
    return cataloguePath();
  }
}
