// The page's first script: small, loaded `async` beside the app's (vite.config.ts puts it in index.html), it
// starts what the first render waits for, the visitor's texts and who they are, as soon as it arrives, rather
// than after the app's 80 KB of code. The app takes these same downloads (loadDictionary, requestJson).
import { startEarly } from '#client/api/http.js';
import { detectBrowserLanguage, loadDictionary } from '#client/i18n/texts.js';
import { SESSION_PATH } from '#client/session/session-path.js';

void loadDictionary(detectBrowserLanguage()).catch(() => {
  // The app asks again and says when the texts cannot be had.
});
startEarly(SESSION_PATH);
