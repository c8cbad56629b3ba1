import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { whenPageIdle } from './app/when-page-idle.js';
import { prepareNumberRules } from './i18n/i18n.js';
import { detectBrowserLanguage, loadDictionary } from './i18n/texts.js';
import './styles.css';

const language = detectBrowserLanguage();
// Start fetching the texts before React mounts (start-texts.ts has usually started already; this is
// the same download), and meanwhile load the locale data that the first render would otherwise wait for.
void loadDictionary(language);
prepareNumberRules(language);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App language={language} />
  </StrictMode>,
);

// The offline worker is registered once the page has loaded and the browser is idle, from a chunk of its own,
// so that neither its code nor what it downloads (every page's code) competes with the first page.
// Development has none.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  whenPageIdle(() =>
    void import('./app/offline/register-service-worker.js')
      .then((worker) => worker.registerServiceWorker())
      // No worker (offline before it was ever installed, or refused by the browser): the shop works online as before.
      .catch(() => undefined),
  );
}
