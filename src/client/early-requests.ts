// The page's first script: small, loaded `async` beside the app's (vite.config.ts puts it in index.html), it
// starts what the first render waits for, the visitor's texts and who they are, and on a product's page the
// product, as soon as it arrives, rather than after the app's code. The app takes these same downloads
// (loadDictionary, requestJson).
import { startEarly } from '#client/api/http.js';
import { detectBrowserLanguage, loadDictionary } from '#client/i18n/texts.js';
import { SESSION_PATH } from '#client/session/session-path.js';
import { matchPageRoute, productPageDataPath } from '#shared/routes.js';
import { isSlug } from '#shared/slug.js';

void loadDictionary(detectBrowserLanguage()).catch(() => {
  // The app asks again and says when the texts cannot be had.
});
startEarly(SESSION_PATH);
const route = matchPageRoute(window.location.pathname);
if (route?.page === 'product' && route.param && isSlug(route.param)) startEarly(productPageDataPath(route.param));
