/** The only server settings the browser sees; the server writes them into the page it serves. */
export interface PublicSettings {
  supportEmail: string;
  publicUrl: string;
  /** True when the dev outbox collects sign-in e-mails instead of a real mail server. */
  devMailbox: boolean;
}

export const PUBLIC_SETTINGS_ELEMENT_ID = 'shop-settings';
