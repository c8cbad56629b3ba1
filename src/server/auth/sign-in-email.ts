import type { MAIL_LANGUAGES } from '../../shared/auth.js';
import { SIGN_IN_LINK_MINUTES } from '../../shared/auth.js';
import type { MailMessage } from '../mail/mailer.js';

type MailLanguage = (typeof MAIL_LANGUAGES)[number];

const SHOP_NAME = 'Nail Art Atelier';

const texts: Record<MailLanguage, { subject: string; greeting: string; intro: string; button: string; expiry: string; ignore: string }> = {
  en: {
    subject: `Your sign-in link for ${SHOP_NAME}`,
    greeting: 'Hello,',
    intro: `Use this link to sign in to ${SHOP_NAME}:`,
    button: `Sign in to ${SHOP_NAME}`,
    expiry: `The link works once and expires in ${SIGN_IN_LINK_MINUTES} minutes.`,
    ignore: 'If you did not ask for it, you can ignore this e-mail; nobody can sign in without it.',
  },
  bg: {
    subject: `Вашият линк за вход в ${SHOP_NAME}`,
    greeting: 'Здравейте,',
    intro: `Използвайте този линк, за да влезете в ${SHOP_NAME}:`,
    button: `Вход в ${SHOP_NAME}`,
    expiry: `Линкът може да се използва само веднъж и изтича след ${SIGN_IN_LINK_MINUTES} минути.`,
    ignore: 'Ако не сте го поискали, можете да пренебрегнете този имейл – без него никой не може да влезе.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[char]!);

export function signInEmail(to: string, link: string, language: MailLanguage): MailMessage {
  const t = texts[language];
  const text = [t.greeting, '', t.intro, link, '', t.expiry, t.ignore, '', SHOP_NAME, ''].join('\n');
  const html = `<!doctype html>
<html lang="${language}"><body style="font-family:Arial,sans-serif;color:#2b1d26;line-height:1.5">
<p>${escapeHtml(t.greeting)}</p>
<p>${escapeHtml(t.intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;background:#9d2b6b;color:#ffffff;border-radius:24px;text-decoration:none;font-weight:bold">${escapeHtml(t.button)}</a></p>
<p style="font-size:13px;color:#6b5864">${escapeHtml(t.expiry)}<br>${escapeHtml(t.ignore)}</p>
<p style="font-size:13px;color:#6b5864;word-break:break-all">${escapeHtml(link)}</p>
<p>${SHOP_NAME}</p>
</body></html>`;
  return { to, subject: t.subject, text, html, link };
}
