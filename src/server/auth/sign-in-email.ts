import type { TextLanguage } from '#shared/catalog.js';
import { SIGN_IN_LINK_MINUTES } from '#shared/auth.js';
import { renderMail } from '#server/mail/mail-layout.js';
import { fill, type MailTexts } from '#server/mail/mail-texts.js';
import type { MailMessage } from '#server/mail/mailer.js';

export function signInEmail(to: string, link: string, language: TextLanguage, texts: MailTexts): MailMessage {
  const shopName = texts.shopName;
  const t = (template: string) => fill(template, { shopName, minutes: SIGN_IN_LINK_MINUTES });
  const mail = renderMail({
    language,
    shopName,
    subject: t(texts.signIn.subject),
    heading: t(texts.signIn.greeting),
    blocks: [
      { kind: 'paragraph', text: t(texts.signIn.intro) },
      { kind: 'button', label: t(texts.signIn.button), url: link },
      { kind: 'paragraph', text: `${t(texts.signIn.expiry)} ${t(texts.signIn.ignore)}` },
    ],
    footer: [link],
  });
  return { to, ...mail, link };
}
