import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { MAX_MAIL_ATTEMPTS, ORDER_MAIL_KINDS, type MailState, type OrderMail, type OrderMailKind } from '#shared/order-mails.js';
import { isDeletedEmailPlaceholder, type AccountEmailRecord } from '#shared/account.js';
import type { TextLanguage } from '#shared/catalog.js';
import { normalizeOrderStatus, type OrderStatus } from '#shared/order-status.js';
import type { Database, DatabaseHandle, Executor } from '#server/db/client.js';
import { mailQueue } from '#server/db/schema.js';
import type { Mailer, MailMessage } from './mailer.js';

/** The channel that wakes every process's worker when a message is queued (at the commit that queues it). */
const CHANNEL = 'mail_queue';

export interface NewMail {
  orderId: string;
  kind: OrderMailKind;
  orderStatus?: OrderStatus;
  /** The withdrawal or refund a returns message tells of; the new invoice an invoice_corrected message sends; the stock alert a back_in_stock message answers. */
  subjectId?: string;
  recipient: string;
  language: TextLanguage;
  /** When it may be sent; now unless a delay lets a later change replace it. */
  notBefore?: Date;
}

/** The one message that belongs to no order: a stock alert's (queued by the database, migration 0033). */
export const BACK_IN_STOCK_MAIL = 'back_in_stock';

interface ClaimedMailBase {
  id: string;
  subjectId: string | null;
  recipient: string;
  language: TextLanguage;
  /** This try's number; it also marks the claim, so that a claim taken over cannot be completed twice. */
  attempts: number;
}

/** An order's message a worker has claimed and now sends. */
export interface ClaimedOrderMail extends ClaimedMailBase {
  orderId: string;
  kind: OrderMailKind;
  orderStatus: OrderStatus | null;
}

/** A message a worker has claimed and now sends: an order's, or a stock alert's (its subjectId). */
export type ClaimedMail = ClaimedOrderMail | (ClaimedMailBase & { kind: typeof BACK_IN_STOCK_MAIL; orderId: null; orderStatus: null });

/** The NOTIFY call that wakes every process's worker, for a statement that queues messages by its own insert. */
export const mailWorkersWakeUp = sql`pg_notify(${CHANNEL}, '')`;

/** Messages still to send: the partial index holds exactly these. */
const isWaiting = sql`${mailQueue.state} in ('queued', 'sending')`;

/** Queues messages in the caller's transaction: they exist, and are sent, only if it commits. */
export async function queueMails(tx: Executor, queued: NewMail[]): Promise<void> {
  // A deleted account's orders keep a placeholder address, which nobody reads.
  const mails = queued.filter((mail) => !isDeletedEmailPlaceholder(mail.recipient));
  if (mails.length === 0) return;
  const inserted = tx.$with('inserted').as(
    tx
      .insert(mailQueue)
      .values(
        mails.map((mail) => ({
          orderId: mail.orderId,
          kind: mail.kind,
          orderStatus: mail.orderStatus ?? null,
          subjectId: mail.subjectId ?? null,
          recipient: mail.recipient,
          language: mail.language,
          ...(mail.notBefore ? { nextAttemptAt: mail.notBefore } : {}),
        })),
      )
      .returning({ id: mailQueue.id }),
  );
  // The insert and the workers' wake-up in one round trip, on the checkout's hot path.
  await tx.with(inserted).select({ woken: mailWorkersWakeUp }).from(inserted).limit(1);
}

/**
 * Queues an order's review request in the caller's transaction, unless one was queued before: an order
 * asks once, ever. A request replaced while it waited (the order left delivered) waits again.
 */
export async function queueReviewRequest(tx: Executor, mail: NewMail & { notBefore: Date }): Promise<void> {
  if (isDeletedEmailPlaceholder(mail.recipient)) return;
  await tx
    .insert(mailQueue)
    .values({ orderId: mail.orderId, kind: mail.kind, recipient: mail.recipient, language: mail.language, nextAttemptAt: mail.notBefore })
    .onConflictDoUpdate({
      target: mailQueue.orderId,
      targetWhere: sql`${mailQueue.kind} = 'review_request'`,
      set: { state: 'queued', nextAttemptAt: mail.notBefore, attempts: 0, lastError: null },
      setWhere: eq(mailQueue.state, 'superseded'),
    });
  await tx.execute(sql`select pg_notify(${CHANNEL}, '')`);
}

/** Marks the order's messages of a kind that still wait (not yet being sent) as replaced; returns how many. */
export async function supersedeQueuedMails(tx: Executor, orderId: string, kind: OrderMailKind): Promise<number> {
  const replaced = await tx
    .update(mailQueue)
    .set({ state: 'superseded' })
    .where(and(eq(mailQueue.orderId, orderId), eq(mailQueue.kind, kind), eq(mailQueue.state, 'queued')))
    .returning({ id: mailQueue.id });
  return replaced.length;
}

/** The status the newest status message sent (or being sent) to the order's customer told of. */
export async function lastToldStatus(tx: Executor, orderId: string): Promise<OrderStatus | null> {
  const [row] = await tx
    .select({ status: mailQueue.orderStatus })
    .from(mailQueue)
    .where(and(eq(mailQueue.orderId, orderId), eq(mailQueue.kind, 'status_changed'), inArray(mailQueue.state, ['sent', 'sending'])))
    .orderBy(sql`${mailQueue.createdAt} desc`)
    .limit(1);
  return row?.status ? normalizeOrderStatus(row.status) : null;
}

type MailRow = typeof mailQueue.$inferSelect;

function toOrderMail(row: MailRow): OrderMail {
  // A message being sent is still queued as far as anyone can tell: it may yet fail and wait again.
  const state: MailState = row.state === 'sending' ? 'queued' : (row.state as MailState);
  return {
    id: row.id,
    kind: row.kind as OrderMailKind,
    status: row.orderStatus ? normalizeOrderStatus(row.orderStatus) : null,
    recipient: row.recipient,
    language: row.language as TextLanguage,
    state,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: state === 'queued' ? row.nextAttemptAt.toISOString() : null,
  };
}

/** Every message of an order, oldest first; those queued together (the customer's and the owner's) in the order of their kinds. */
export async function listOrderMails(db: Executor, orderId: string): Promise<OrderMail[]> {
  const rows = await db.select().from(mailQueue).where(eq(mailQueue.orderId, orderId)).orderBy(asc(mailQueue.createdAt));
  const rank = (mail: OrderMail) => ORDER_MAIL_KINDS.indexOf(mail.kind);
  return rows.map(toOrderMail).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || rank(a) - rank(b) || a.recipient.localeCompare(b.recipient));
}

/**
 * Queues a new copy of one of the order's messages, to be sent now: 'queued', or 'waiting' when the
 * message or a copy of it still waits to be sent (one at a time: thirty clicks at once send one copy),
 * or 'not_found' when the order has no such message. The original's row is locked for the check and
 * the insert, so that requests arriving together on PostgreSQL take turns and each sees the copy the
 * one before it queued.
 */
export async function resendMail(db: Database, orderId: string, mailId: string): Promise<'queued' | 'waiting' | 'not_found'> {
  return db.transaction(async (tx) => {
    const [original] = await tx
      .select()
      .from(mailQueue)
      .where(and(eq(mailQueue.id, mailId), eq(mailQueue.orderId, orderId)))
      .for('update');
    if (!original) return 'not_found';
    const [waiting] = await tx
      .select({ id: mailQueue.id })
      .from(mailQueue)
      .where(
        and(
          eq(mailQueue.orderId, orderId),
          eq(mailQueue.kind, original.kind),
          eq(mailQueue.recipient, original.recipient),
          sql`${mailQueue.orderStatus} is not distinct from ${original.orderStatus}`,
          sql`${mailQueue.subjectId} is not distinct from ${original.subjectId}`,
          isWaiting,
        ),
      )
      .limit(1);
    if (waiting) return 'waiting';
    await queueMails(tx, [
      {
        orderId,
        kind: original.kind as OrderMailKind,
        orderStatus: original.orderStatus ? normalizeOrderStatus(original.orderStatus) : undefined,
        subjectId: original.subjectId ?? undefined,
        recipient: original.recipient,
        language: original.language as TextLanguage,
      },
    ]);
    return 'queued';
  });
}

/**
 * Claims up to `limit` due messages for this process: queued ones whose time has come, and ones
 * another process claimed and did not finish in time (it died, say). SKIP LOCKED lets processes
 * claim at once without waiting for each other or taking the same message.
 */
async function claimDue(db: Database, claimSeconds: number, limit: number): Promise<ClaimedMail[]> {
  const due = db
    .select({ id: mailQueue.id })
    .from(mailQueue)
    .where(and(isWaiting, sql`${mailQueue.nextAttemptAt} <= now()`, or(eq(mailQueue.state, 'queued'), sql`${mailQueue.claimedUntil} < now()`)))
    .orderBy(asc(mailQueue.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(mailQueue)
    .set({ state: 'sending', attempts: sql`${mailQueue.attempts} + 1`, claimedUntil: sql`now() + make_interval(secs => ${claimSeconds})` })
    .where(inArray(mailQueue.id, due))
    .returning();
  return rows.map((row): ClaimedMail => {
    const claimed = { id: row.id, subjectId: row.subjectId, recipient: row.recipient, language: row.language as TextLanguage, attempts: row.attempts };
    // The table's check keeps an order to every message but the stock alerts'.
    if (row.orderId === null) return { ...claimed, kind: BACK_IN_STOCK_MAIL, orderId: null, orderStatus: null };
    return { ...claimed, orderId: row.orderId, kind: row.kind as OrderMailKind, orderStatus: row.orderStatus ? normalizeOrderStatus(row.orderStatus) : null };
  });
}

/** Completes this process's claim, unless another process has taken the message over since. */
const ownClaim = (mail: ClaimedMail) => and(eq(mailQueue.id, mail.id), eq(mailQueue.state, 'sending'), eq(mailQueue.attempts, mail.attempts));

/** How long until the next message is due (or a claim runs out), if any is waiting. */
async function nextDueInMs(db: Database): Promise<number | undefined> {
  const dueAt = sql`case when ${mailQueue.state} = 'sending' then greatest(${mailQueue.nextAttemptAt}, ${mailQueue.claimedUntil}) else ${mailQueue.nextAttemptAt} end`;
  const [row] = await db
    .select({ waitMs: sql<string | null>`extract(epoch from (min(${dueAt}) - now())) * 1000` })
    .from(mailQueue)
    .where(isWaiting);
  return row?.waitMs == null ? undefined : Math.max(0, Number(row.waitMs));
}

export interface MailWorkerOptions {
  /** How long a process may take to send a message before another may take it over. */
  claimSeconds: number;
  /** The wait before the second try; each further try waits twice as long, up to an hour. */
  retryBaseMs: number;
  /** The longest the worker sleeps without looking, in case a wake-up was missed. */
  pollMs: number;
}

const BATCH_SIZE = 10;
/** How long stopping waits for the e-mail being sent; within the 9 s a shutdown has (start-server.ts). */
const STOP_WAIT_MS = 5_000;
const MAX_RETRY_DELAY_MS = 60 * 60 * 1000;

/** Writes a claimed message; null when there is nothing left to tell (it is then marked superseded, not sent). */
export type MailComposer = (mail: ClaimedMail) => Promise<MailMessage | null>;

/** An SMTP answer in the 5xx range is permanent (no such mailbox, refused): trying again will not help. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
};

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 500);

/**
 * Sends queued messages after the transactions that queued them commit. Every server process runs
 * one; each wakes when a message is queued on any process (NOTIFY) and when a retry falls due.
 * A message that fails waits and is tried again, with growing delays, up to MAX_MAIL_ATTEMPTS
 * times; a permanent refusal or the last failed try marks it failed with the reason.
 */
export class MailWorker {
  private stopListening: (() => Promise<void>) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private wokenWhileRunning = false;
  private stopped = false;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly mailer: Mailer,
    private readonly compose: MailComposer,
    private readonly log: FastifyBaseLogger,
    private readonly options: MailWorkerOptions,
  ) {}

  async start(): Promise<void> {
    if (this.database.kind === 'pglite') {
      // The embedded database serves one process, so a message still marked as being sent was left
      // by this process's previous run, which ended before it finished: it is sent again now.
      await this.database.db.update(mailQueue).set({ state: 'queued', claimedUntil: null }).where(eq(mailQueue.state, 'sending'));
    }
    this.stopListening = await this.database.listen(
      CHANNEL,
      () => this.wake(),
      () => this.wake(),
    );
    this.wake();
  }

  /**
   * Stops taking messages, gives back those claimed and not yet tried, and waits for the one being
   * sent, for at most `waitMs`: a mail server that hangs must not hold a shutdown past its deadline.
   * A send cut off that way keeps its claim, as after a crash: the embedded database's next start
   * sends it again, and on PostgreSQL another process takes it over when MAIL_CLAIM_SECONDS run out.
   */
  async stop(waitMs = STOP_WAIT_MS): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const stopListening = this.stopListening;
    this.stopListening = undefined;
    await stopListening?.();
    const running = this.running;
    if (!running) return;
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([running.then(() => true), new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)))]);
    clearTimeout(timer);
    if (!finished) this.log.warn(`An e-mail was still being sent after ${waitMs} ms; it is left to be sent again`);
  }

  /** Sends what is due now; a wake-up during a run makes the run look again before it ends. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.wokenWhileRunning = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.sendDue().finally(() => {
      this.running = undefined;
      void this.scheduleNext();
    });
  }

  private async sendDue(): Promise<void> {
    try {
      do {
        this.wokenWhileRunning = false;
        for (;;) {
          const batch = await claimDue(this.database.db, this.options.claimSeconds, BATCH_SIZE);
          for (const [index, mail] of batch.entries()) {
            if (this.stopped) {
              await this.release(batch.slice(index));
              return;
            }
            await this.deliver(mail);
          }
          if (batch.length < BATCH_SIZE || this.stopped) break;
        }
      } while (this.wokenWhileRunning && !this.stopped);
    } catch (error) {
      if (!this.stopped) this.log.error({ err: error }, 'The mail queue could not be read; it is tried again shortly');
    }
  }

  private async scheduleNext(): Promise<void> {
    if (this.stopped) return;
    let wait = this.options.pollMs;
    try {
      const due = await nextDueInMs(this.database.db);
      if (due !== undefined) wait = Math.min(wait, due + 50);
    } catch {
      // The database is away; look again after the usual pause.
    }
    if (this.stopped || this.running) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.wake(), wait);
    this.timer.unref();
  }

  /** Gives claimed messages back untried, for a process that is shutting down. */
  private async release(mails: ClaimedMail[]): Promise<void> {
    for (const mail of mails) {
      await this.database.db.update(mailQueue).set({ state: 'queued', claimedUntil: null, attempts: mail.attempts - 1 }).where(ownClaim(mail));
    }
  }

  private async deliver(mail: ClaimedMail): Promise<void> {
    const { db } = this.database;
    let message: MailMessage | null;
    try {
      message = await this.compose(mail);
    } catch (error) {
      this.log.error({ err: error, mailId: mail.id }, 'An e-mail could not be written; it is marked failed');
      await db.update(mailQueue).set({ state: 'failed', claimedUntil: null, lastError: `Could not be written: ${reasonOf(error)}` }).where(ownClaim(mail));
      return;
    }
    if (message === null) {
      await db.update(mailQueue).set({ state: 'superseded', claimedUntil: null }).where(ownClaim(mail));
      return;
    }
    try {
      await this.mailer.send({ ...message, messageId: `<${mail.id}@${this.mailer.domain}>` });
    } catch (error) {
      const giveUp = isPermanent(error) || mail.attempts >= MAX_MAIL_ATTEMPTS;
      const retryMs = Math.min(this.options.retryBaseMs * 2 ** (mail.attempts - 1), MAX_RETRY_DELAY_MS);
      // The reason may name the recipient, so the log keeps only the codes; the admin sees the reason.
      const code = (error as { code?: unknown; responseCode?: unknown } | null) ?? {};
      this.log.warn({ mailId: mail.id, attempts: mail.attempts, code: code.code, responseCode: code.responseCode }, giveUp ? 'An e-mail failed and will not be tried again' : 'An e-mail could not be sent; it is tried again later');
      await db
        .update(mailQueue)
        .set(giveUp ? { state: 'failed', claimedUntil: null, lastError: reasonOf(error) } : { state: 'queued', claimedUntil: null, lastError: reasonOf(error), nextAttemptAt: sql`now() + make_interval(secs => ${retryMs / 1000})` })
        .where(ownClaim(mail));
      return;
    }
    await db.update(mailQueue).set({ state: 'sent', claimedUntil: null, sentAt: new Date(), lastError: null }).where(ownClaim(mail));
  }
}

/** The messages of these orders addressed to the customer, oldest first, for the customer's copy of their data. */
export async function listCustomerMails(db: Executor, orderIds: readonly string[], recipient: string): Promise<AccountEmailRecord[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .select()
    .from(mailQueue)
    .where(and(inArray(mailQueue.orderId, [...orderIds]), eq(mailQueue.recipient, recipient)))
    .orderBy(asc(mailQueue.createdAt));
  return rows.map((row) => {
    const { kind, status, state, createdAt, sentAt } = toOrderMail(row);
    return { orderId: row.orderId!, kind, orderStatus: status, state, createdAt, sentAt };
  });
}

/**
 * For a customer who deleted their account, in the caller's transaction: no message of their orders
 * that still waits is sent (a message being handed to the mail server at this moment may still go),
 * and their address on those orders' messages becomes the placeholder, in the recipient and in the
 * mail server's answers kept as errors ("550 5.1.1 <ana@example.com>: ...", in any case).
 */
export async function forgetRecipient(tx: Executor, orderIds: readonly string[], email: string, placeholder: string): Promise<void> {
  if (orderIds.length === 0) return;
  const ofOrders = inArray(mailQueue.orderId, [...orderIds]);
  await tx.update(mailQueue).set({ state: 'superseded', claimedUntil: null }).where(and(ofOrders, isWaiting));
  await tx.update(mailQueue).set({ recipient: placeholder }).where(and(ofOrders, eq(mailQueue.recipient, email)));
  // The address as a regular expression that matches it literally.
  const address = email.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  await tx
    .update(mailQueue)
    .set({ lastError: sql`regexp_replace(${mailQueue.lastError}, ${address}, ${placeholder}, 'gi')` })
    .where(and(ofOrders, sql`${mailQueue.lastError} ~* ${address}`));
}

/**
 * For a deleted account, in the caller's transaction, the messages of the stock alerts it left: none
 * that still waits is sent, and the placeholder replaces the address on all of them.
 */
export async function forgetStockAlertMails(tx: Executor, alertIds: readonly string[], placeholder: string): Promise<void> {
  if (alertIds.length === 0) return;
  const ofAlerts = and(isNull(mailQueue.orderId), inArray(mailQueue.subjectId, [...alertIds]));
  await tx.update(mailQueue).set({ state: 'superseded', claimedUntil: null }).where(and(ofAlerts, isWaiting));
  await tx.update(mailQueue).set({ recipient: placeholder, lastError: null }).where(ofAlerts);
}
