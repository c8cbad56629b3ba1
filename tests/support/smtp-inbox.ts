import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  subject: string;
  /** The decoded bodies of every part, one after another. */
  body: string;
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

function decodePart(part: string): string {
  const [head = '', ...rest] = part.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') {
    const bytes = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => `%${hex}`);
    return decodeURIComponent(bytes.replace(/%(?![0-9A-F]{2})/gi, '%25'));
  }
  return body;
}

/** Decodes RFC 2047 encoded words; adjacent words are joined as bytes, since a character may span two. */
function decodeHeader(value: string): string {
  return value.replace(/(=\?utf-8\?[BQ]\?[^?]*\?=\s*)+/gi, (run) => {
    const bytes = [...run.matchAll(/=\?utf-8\?([BQ])\?([^?]*)\?=/gi)].map(([, kind, text]) =>
      kind!.toUpperCase() === 'B'
        ? Buffer.from(text!, 'base64')
        : Buffer.from(text!.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1'),
    );
    return Buffer.concat(bytes).toString('utf8') + (/\s$/.test(run) ? ' ' : '');
  });
}

/** Just enough MIME for tests: the subject, and the text of every part decoded. */
function parseMail(raw: string, to: string[]): ReceivedMail {
  const headerEnd = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, headerEnd).replace(/\r?\n[ \t]+/g, ' ');
  const subject = decodeHeader(/^subject:\s*(.*)$/im.exec(headers)?.[1] ?? '').trim();
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  return { to, subject, body: parts.map(decodePart).join('\n'), raw };
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
        const accept = () => {
          messages.push(parseMail(Buffer.concat(chunks).toString('utf8'), to));
          waiters.splice(0).forEach((wake) => wake());
          callback();
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
