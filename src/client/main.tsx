import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from '#client/app/app.js';
import { prepareNumberRules } from '#client/i18n/i18n.js';
import { detectBrowserLanguage, loadDictionary } from '#client/i18n/texts.js';
import './styles.css';

const language = detectBrowserLanguage();
// Start fetching the texts before React mounts (early-requests.ts has usually started already; this is
// the same download), and meanwhile load the locale data that the first render would otherwise wait for.
void loadDictionary(language);
prepareNumberRules(language);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App language={language} />
  </StrictMode>,
);

// The offline worker is registered once the page has loaded, from a chunk of its own, so that neither
// its code nor what it downloads (every page's code) competes with the first page. Development has none.
// (Not later, at whenPageIdle: the first page's images, handed to the worker when it is ready, were then
// missing from its cache in tests/e2e/offline.spec.ts.)
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () =>
    import('#client/app/offline/register-service-worker.js')
      .then((worker) => worker.registerServiceWorker())
      // No worker (offline before it was ever installed, or refused by the browser): the shop works online as before.
      .catch(() => undefined);
  if (document.readyState === 'complete') void register();
  else window.addEventListener('load', () => void register(), { once: true });
}
