import { DEFAULT_PUBLIC_SETTINGS, PUBLIC_SETTINGS_ELEMENT_ID, type PublicSettings } from '#shared/settings.js';

/** Settings the server wrote into the page; safe defaults when the page was served without them. */
export const settings: PublicSettings = (() => {
  const defaults: PublicSettings = { ...DEFAULT_PUBLIC_SETTINGS, publicUrl: window.location.origin };
  const element = document.getElementById(PUBLIC_SETTINGS_ELEMENT_ID);
  try {
    return { ...defaults, ...(element ? (JSON.parse(element.textContent ?? '{}') as Partial<PublicSettings>) : {}) };
  } catch {
    return defaults;
  }
})();
