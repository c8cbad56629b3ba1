import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The plain-text part, decoded. */
  text: string;
  /** The HTML part, decoded ('' when there is none). */
  html: string;
  /** The decoded bodies of every part, one after another (the text, then the HTML). */
  body: string;
  /** The files sent with it, decoded. */
  attachments: { filename: string; contentType: string; content: Buffer }[];
  raw: string;
}

export interface SmtpInbox {
  url: string;
  port: number;
  messages: ReceivedMail[];
  /** How many connections were opened, whether or not a message followed. */
  connections: number;
  /** The next message to this address not yet handed out, waiting for it if needed. */
  waitForMail(to: string, timeoutMs?: number, match?: (mail: ReceivedMail) => boolean): Promise<ReceivedMail>;
  /** The link of the next sign-in e-mail to this address not yet handed out (order e-mails may come between). */
  waitForSignInLink(to: string, timeoutMs?: number): Promise<string>;
  close(): Promise<void>;
}

/** The message as a mail client reads it (mailparser): the subject decoded, every part of the body decoded. */
async function parseMail(raw: Buffer, to: string[]): Promise<ReceivedMail> {
  const parsed = await simpleParser(raw);
  const text = parsed.text ?? '';
  const html = typeof parsed.html === 'string' ? parsed.html : '';
  const attachments = parsed.attachments.map((file) => ({ filename: file.filename ?? '', contentType: file.contentType, content: file.content }));
  return { to, subject: parsed.subject ?? '', text, html, body: [text, html].filter(Boolean).join('\n'), attachments, raw: raw.toString('utf8') };
}

export interface SmtpInboxOptions {
  /** Listen on this port (to come back where a stopped inbox was); a free one by default. */
  port?: number;
  /** Recipients refused with a permanent error (550), as for a mailbox that does not exist. */
  refuse?: (address: string) => boolean;
  /** Keeps every connection waiting before the greeting, as a mail server that hangs. */
  hang?: boolean;
  /** Accepts each message only this long after receiving it, as a slow mail server. */
  acceptAfterMs?: number;
  /** Accepts a message to these recipients only when the promise this returns settles (none: at once). */
  acceptWhen?: (to: string[]) => Promise<void> | undefined;
}

/** A real SMTP server on a free local port that keeps what it receives. */
export async function startSmtpInbox(options: SmtpInboxOptions = {}): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  // Each message is handed out once, in the order they arrived.
  const handedOut = new Set<ReceivedMail>();
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Connections still open (a hanging one) are cut this soon after close().
    closeTimeout: 200,
    onConnect(_session, callback) {
      connections++;
      waiters.splice(0).forEach((wake) => wake());
      if (!options.hang) callback();
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address.toLowerCase())) {
        callback(Object.assign(new Error('5.1.1 Mailbox unavailable'), { responseCode: 550 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase());
        // Parsed before it is accepted, so that a message is in `messages` when its sender hears it was taken.
        const parsing = parseMail(Buffer.concat(chunks), to);
        const accept = () => {
          void parsing.then(
            (mail) => {
              messages.push(mail);
              waiters.splice(0).forEach((wake) => wake());
              callback();
            },
            (error: Error) => callback(error),
          );
        };
        const gate = options.acceptWhen?.(to);
        if (gate) void gate.then(accept, accept);
        else if (options.acceptAfterMs) setTimeout(accept, options.acceptAfterMs);
        else accept();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  const waitForMail: SmtpInbox['waitForMail'] = async (to, timeoutMs = 10_000, match = () => true) => {
    const recipient = to.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.find((message) => !handedOut.has(message) && message.to.includes(recipient) && match(message));
      if (found) {
        handedOut.add(found);
        return found;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`No e-mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, Math.min(left, 250));
      });
    }
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    get connections() {
      return connections;
    },
    waitForMail,
    async waitForSignInLink(to, timeoutMs) {
      return signInLinkIn(await waitForMail(to, timeoutMs, (mail) => SIGN_IN_LINK.test(mail.body)));
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const SIGN_IN_LINK = /https?:\/\/\S+?signInToken=[A-Za-z0-9_-]+/;

/** The sign-in link in a message. */
export function signInLinkIn(mail: ReceivedMail): string {
  const link = SIGN_IN_LINK.exec(mail.body)?.[0];
  if (!link) throw new Error(`No sign-in link in:\n${mail.body}`);
  return link;
}
