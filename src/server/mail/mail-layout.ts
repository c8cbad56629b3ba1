import type { TextLanguage } from '#shared/catalog.js';

/** The parts an e-mail is made of; each becomes HTML and plain text alike. */
export type MailBlock =
  | { kind: 'paragraph'; text: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'heading'; text: string }
  /** Label and value pairs: totals, a receipt. The last may stand out (a total). */
  | { kind: 'facts'; rows: Array<[string, string]>; emphasizeLast?: boolean }
  /**
   * Order lines: a name and the line's amount (quantity × unit price = line total, as lineText writes
   * it), and what the buyer chose for it in one line of small print, when they chose anything.
   */
  | { kind: 'items'; head: [string, string]; rows: Array<[name: string, amount: string, detail?: string]> }
  /** An address or other lines that belong together. */
  | { kind: 'lines'; lines: string[] };

export interface MailDocument {
  language: TextLanguage;
  shopName: string;
  subject: string;
  /** The first thing a mail client shows after the subject. */
  heading: string;
  blocks: MailBlock[];
  /** Small print at the end: why the e-mail came, where to ask. */
  footer: string[];
}

const COLORS = { primary: '#9d2b6b', ink: '#2b1d26', muted: '#6b5864', border: '#ecdde5', page: '#fdf7fa', soft: '#fbe7f1' };

const escapeHtml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[char]!);

function blockHtml(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px">${escapeHtml(block.text)}</p>`;
    case 'heading':
      return `<h2 style="margin:24px 0 8px;font-size:17px;color:${COLORS.ink}">${escapeHtml(block.text)}</h2>`;
    case 'button':
      return `<p style="margin:8px 0 24px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 22px;background:${COLORS.primary};color:#ffffff;border-radius:24px;text-decoration:none;font-weight:bold">${escapeHtml(block.label)}</a></p>`;
    case 'lines':
      return `<p style="margin:0 0 16px">${block.lines.map(escapeHtml).join('<br>')}</p>`;
    case 'facts':
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px">${block.rows
        .map(([label, value], index) => {
          const strong = block.emphasizeLast && index === block.rows.length - 1;
          const style = `padding:6px 0;${strong ? `border-top:2px solid ${COLORS.border};font-weight:bold;font-size:17px` : ''}`;
          return `<tr><td style="${style}">${escapeHtml(label)}</td><td align="right" style="${style};white-space:nowrap">${escapeHtml(value)}</td></tr>`;
        })
        .join('')}</table>`;
    case 'items':
      return `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 8px"><tr>${block.head
        .map((label, index) => `<th align="${index === 0 ? 'left' : 'right'}" style="padding:6px 0;border-bottom:1px solid ${COLORS.border};font-size:13px;color:${COLORS.muted};font-weight:normal">${escapeHtml(label)}</th>`)
        .join('')}</tr>${block.rows
        .map(
          ([name, amount, detail]) =>
            `<tr><td style="padding:8px 8px 8px 0;border-bottom:1px solid ${COLORS.border}">${escapeHtml(name)}${detail ? `<br><span style="font-size:13px;color:${COLORS.muted}">${escapeHtml(detail)}</span>` : ''}</td><td align="right" style="padding:8px 0 8px 8px;border-bottom:1px solid ${COLORS.border}">${escapeHtml(amount)}</td></tr>`,
        )
        .join('')}</table>`;
  }
}

function blockText(block: MailBlock): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'heading':
      return `${block.text}\n${'-'.repeat(Math.min(block.text.length, 40))}`;
    case 'button':
      return `${block.label}: ${block.url}`;
    case 'lines':
      return block.lines.join('\n');
    case 'facts':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
    case 'items':
      return block.rows.map(([name, amount, detail]) => `${name}: ${amount}${detail ? `\n  ${detail}` : ''}`).join('\n');
  }
}

/**
 * An e-mail as HTML and plain text. The HTML is a single centred column of tables with inline styles,
 * which mail clients render alike, a phone included; it has no images, so it reads the same when a
 * client blocks them.
 */
export function renderMail(document: MailDocument): { subject: string; html: string; text: string } {
  const html = `<!doctype html>
<html lang="${document.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(document.subject)}</title></head>
<body style="margin:0;padding:0;background:${COLORS.page};color:${COLORS.ink};font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${COLORS.page}"><tr><td align="center" style="padding:16px 8px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border:1px solid ${COLORS.border};border-radius:12px">
<tr><td style="padding:16px 24px;background:${COLORS.soft};border-radius:12px 12px 0 0;color:${COLORS.primary};font-size:18px;font-weight:bold">${escapeHtml(document.shopName)}</td></tr>
<tr><td style="padding:24px">
<h1 style="margin:0 0 16px;font-size:22px;line-height:1.3;color:${COLORS.ink}">${escapeHtml(document.heading)}</h1>
${document.blocks.map(blockHtml).join('\n')}
</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid ${COLORS.border};font-size:13px;color:${COLORS.muted}">${document.footer.map(escapeHtml).join('<br>')}</td></tr>
</table></td></tr></table>
</body></html>`;
  const text = [document.heading, '', ...document.blocks.flatMap((block) => [blockText(block), '']), ...document.footer, '', document.shopName, ''].join('\n');
  return { subject: document.subject, html, text };
}
