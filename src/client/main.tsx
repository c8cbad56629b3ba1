import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app.js';
import { detectBrowserLanguage, loadDictionary } from './i18n/i18n.js';
import './styles.css';

const language = detectBrowserLanguage();
// Start fetching the texts before React mounts, in parallel with everything else.
void loadDictionary(language);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App language={language} />
  </StrictMode>,
);
