import { PUBLIC_SETTINGS_ELEMENT_ID, type PublicSettings } from '../shared/settings.js';

/** Settings the server wrote into the page; safe defaults when the page was served without them. */
export const settings: PublicSettings = (() => {
  const defaults: PublicSettings = { supportEmail: 'support@nail-art.example', publicUrl: window.location.origin, devMailbox: false };
  const element = document.getElementById(PUBLIC_SETTINGS_ELEMENT_ID);
  try {
    return { ...defaults, ...(element ? (JSON.parse(element.textContent ?? '{}') as Partial<PublicSettings>) : {}) };
  } catch {
    return defaults;
  }
})();
