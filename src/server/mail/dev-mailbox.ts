import { timingSafeEqual } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { OutboxEntry } from './mailer.js';

const escapeHtml = (text: string) =>
  text.replace(/[<>&'"]/g, (char) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&#39;', '"': '&quot;' })[char]!);

async function readOutbox(folder: string, limit: number): Promise<OutboxEntry[]> {
  const files = (await readdir(folder).catch(() => [] as string[])).filter((file) => file.endsWith('.json'));
  const newest = files.sort().reverse().slice(0, limit);
  return Promise.all(newest.map(async (file) => JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry));
}

/** The outbox's file names: a time and random hex digits (see mailer.ts). */
const OUTBOX_ID = /^[0-9TZ-]+-[0-9a-f]{8}$/;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface DevMailboxAccess {
  /** The secret that opens the mailbox: printed in the server log, never sent in a page. */
  key: string;
  /** The shop's own address: the mailbox answers only for its host name or a loopback name. */
  publicUrl: string;
}

const keyMatches = (given: unknown, key: string) =>
  typeof given === 'string' && given.length === key.length && timingSafeEqual(Buffer.from(given), Buffer.from(key));

/**
 * Development only: the messages of the outbox, newest first, with their links ready to click.
 * Sign-in links open accounts, so the mailbox needs the key printed in the server log, and it
 * ignores requests for a host name that is not the shop's (a rebound DNS name, for instance).
 */
export function registerDevMailbox(app: FastifyInstance, folder: string, access: DevMailboxAccess): void {
  const ownHost = new URL(access.publicUrl).hostname;
  const allowed = (request: FastifyRequest<{ Querystring: { key?: unknown } }>) => {
    const hostname = request.hostname.toLowerCase();
    return (LOOPBACK_NAMES.has(hostname) || hostname === ownHost) && keyMatches(request.query.key, access.key);
  };
  const notFound = (reply: FastifyReply) => reply.status(404).type('text/plain; charset=utf-8').send('Not found. Open the mailbox address printed in the server log.');

  app.get<{ Querystring: { key?: unknown } }>('/dev/mailbox', async (request, reply) => {
    if (!allowed(request)) return notFound(reply);
    const key = encodeURIComponent(access.key);
    const entries = await readOutbox(folder, 50);
    const items = entries
      .map(
        (entry) => `<li>
  <p><strong>${escapeHtml(entry.subject)}</strong><br>To: ${escapeHtml(entry.to)} · ${escapeHtml(entry.sentAt)}</p>
  ${entry.link ? `<p><a href="${escapeHtml(entry.link)}">${escapeHtml(entry.link)}</a></p>` : ''}
  ${entry.attachments?.length ? `<p>Attached (in the .eml file): ${entry.attachments.map(escapeHtml).join(', ')}</p>` : ''}
  ${entry.html ? `<p><a href="/dev/mailbox/message?key=${key}&amp;id=${encodeURIComponent(entry.id)}">Open the e-mail as the recipient sees it</a></p>` : ''}
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

  // One message's HTML part, as a mail client would show it: no scripts, nothing loaded from elsewhere.
  app.get<{ Querystring: { key?: unknown; id?: unknown } }>('/dev/mailbox/message', async (request, reply) => {
    const id = request.query.id;
    if (!allowed(request) || typeof id !== 'string' || !OUTBOX_ID.test(id)) return notFound(reply);
    const entry = await readFile(path.join(folder, `${id}.json`), 'utf8').then((text) => JSON.parse(text) as OutboxEntry, () => undefined);
    if (!entry?.html) return notFound(reply);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .send(entry.html);
  });
}
