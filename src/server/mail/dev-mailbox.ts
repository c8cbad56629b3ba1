import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { OutboxEntry } from './mailer.js';

const escapeHtml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[char]!);

async function readOutbox(folder: string, limit: number): Promise<OutboxEntry[]> {
  const files = (await readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith('.json'));
  const newest = files.sort().reverse().slice(0, limit);
  return Promise.all(newest.map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry));
}

/** Development only: the messages of the outbox, newest first, with their links ready to click. */
export function registerDevMailbox(app: FastifyInstance, folder: string): void {
  app.get('/dev/mailbox', async (_request, reply) => {
    const entries = await readOutbox(folder, 50);
    const items = entries
      .map(
        (entry) => `<li>
  <p><strong>${escapeHtml(entry.subject)}</strong><br>To: ${escapeHtml(entry.to)} · ${escapeHtml(entry.sentAt)}</p>
  ${entry.link ? `<p><a href="${escapeHtml(entry.link)}">${escapeHtml(entry.link)}</a></p>` : ''}
  <details><summary>Text</summary><pre>${escapeHtml(entry.text)}</pre></details>
</li>`,
      )
      .join('\n');
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>Development mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;line-height:1.5}li{border-bottom:1px solid #ddd;padding:.5rem 0;list-style:none}ul{padding:0}pre{white-space:pre-wrap}a{word-break:break-all}</style>
</head><body>
<h1>Development mailbox</h1>
<p>E-mails the shop sent while no SMTP_URL is set. Files: ${escapeHtml(folder)}</p>
${entries.length ? `<ul>${items}</ul>` : '<p>No messages yet.</p>'}
</body></html>`;
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
  });
}
