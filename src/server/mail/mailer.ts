import { randomBytes } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Config } from '#server/config.js';
import type { ShopMetrics } from '#server/metrics/shop-metrics.js';
import { makePrivateFolder, PRIVATE_FILE_MODE } from '#server/private-files.js';

/** A file sent with a message: an invoice's PDF, say. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: MailAttachment[];
  /** The message's one link, printed to the log by the development outbox. */
  link?: string;
  /** A Message-ID of our own, so that a message sent twice (after a crash) is known as one. */
  messageId?: string;
}

/** What the development outbox keeps beside each .eml file, for the /dev/mailbox page. */
export interface OutboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** The HTML part, which the mailbox shows as the recipient would see it. */
  html: string;
  link: string | null;
  /** The names of the files sent with it, which the .eml file holds. */
  attachments?: string[];
  sentAt: string;
}

export interface Mailer {
  kind: 'smtp' | 'outbox';
  /** The sender's domain, for Message-IDs. */
  domain: string;
  /** Resolves once the message is accepted; rejects when it could not be sent. */
  send(message: MailMessage): Promise<void>;
}

export function outboxDir(config: Config): string {
  return path.resolve(config.dataDir, 'outbox');
}

/** The mailer, counting each try to hand a message (a sign-in link or a queued order message) over that failed. */
export function countingSendFailures(mailer: Mailer, metrics: ShopMetrics): Mailer {
  return {
    ...mailer,
    send: async (message) => {
      try {
        await mailer.send(message);
      } catch (error) {
        metrics.countMailSendFailure();
        throw error;
      }
    },
  };
}

/** SMTP when SMTP_URL is set; otherwise every message is written to DATA_DIR/outbox and its link logged. */
export function createMailer(config: Config, log: FastifyBaseLogger): Mailer {
  const domain = /@([^>\s]+)>?\s*$/.exec(config.mailFrom)?.[1] ?? 'localhost';
  const envelope = (message: MailMessage) => ({
    from: config.mailFrom,
    to: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html,
    ...(message.attachments?.length ? { attachments: message.attachments } : {}),
    ...(message.messageId ? { messageId: message.messageId } : {}),
  });
  if (config.smtpUrl) {
    const smtpUrl = new URL(config.smtpUrl);
    // Fail within seconds rather than leave a visitor waiting on a mail server that does not answer.
    for (const [name, value] of [['connectionTimeout', '10000'], ['greetingTimeout', '10000'], ['socketTimeout', '20000']]) {
      if (!smtpUrl.searchParams.has(name!)) smtpUrl.searchParams.set(name!, value!);
    }
    const transport = nodemailer.createTransport(smtpUrl.toString());
    return {
      kind: 'smtp',
      domain,
      async send(message) {
        await transport.sendMail(envelope(message));
      },
    };
  }

  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const folder = outboxDir(config);
  return {
    kind: 'outbox',
    domain,
    async send(message) {
      const info = await transport.sendMail(envelope(message));
      const sentAt = new Date();
      const id = `${sentAt.toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}`;
      const entry: OutboxEntry = { id, to: message.to, subject: message.subject, text: message.text, html: message.html, link: message.link ?? null, attachments: message.attachments?.map((file) => file.filename) ?? [], sentAt: sentAt.toISOString() };
      await makePrivateFolder(folder);
      await writeFile(path.join(folder, `${id}.eml`), info.message as Buffer, { mode: PRIVATE_FILE_MODE });
      // Written aside and renamed, so that a reader of the outbox (the mailbox page, a test) never sees half a file.
      const entryFile = path.join(folder, `${id}.json`);
      await writeFile(`${entryFile}.tmp`, JSON.stringify(entry, null, 2), { mode: PRIVATE_FILE_MODE });
      await rename(`${entryFile}.tmp`, entryFile);
      log.info({ file: path.join(folder, `${id}.eml`) }, `E-mail written to the outbox: ${message.subject}`);
      if (message.link) log.info(`Link in that e-mail: ${message.link}`);
    },
  };
}
