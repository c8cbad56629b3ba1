import { useEffect } from 'react';
import type { Language } from '#client/i18n/texts.js';

/** The web app manifest in the page's language, so that installing the shop describes it in that language. */
export function useManifestLanguage(language: Language): void {
  useEffect(() => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    if (link) link.href = language === 'en' ? '/manifest.webmanifest' : `/manifest.${language}.webmanifest`;
  }, [language]);
}
