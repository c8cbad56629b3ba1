// The page's first script: small, loaded `async` beside the app's (vite.config.ts puts it in index.html), it
// starts the download of the visitor's texts as soon as it arrives, rather than after the app's 80 KB of code,
// which cannot show anything without them. The app takes the same download from loadDictionary.
import { detectBrowserLanguage, loadDictionary } from './texts.js';

void loadDictionary(detectBrowserLanguage()).catch(() => {
  // The app asks again and says when the texts cannot be had.
});
