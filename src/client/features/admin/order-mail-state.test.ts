import { describe, expect, it } from 'vitest';
import type { OrderMail } from '#shared/order-mails.js';
import bgCore from '#client/i18n/bg.json';
import bgPages from '#client/i18n/bg.pages.json';
import enCore from '#client/i18n/en.json';
import enPages from '#client/i18n/en.pages.json';
import { createTranslator } from '#client/i18n/i18n.js';
import { formatDateTime } from '#client/ui/format-date.js';
import { mailPollInterval, mailStateText } from './order-mail-state.js';

const translators = { en: createTranslator('en', { ...enCore, ...enPages }), bg: createTranslator('bg', { ...bgCore, ...bgPages }) };

const at = '2026-11-25T15:18:00.000Z';
const confirmation: OrderMail = {
  id: 'mail-1',
  kind: 'order_placed',
  status: null,
  recipient: 'maria@example.com',
  language: 'bg',
  state: 'queued',
  attempts: 0,
  lastError: null,
  createdAt: at,
  sentAt: null,
  nextAttemptAt: at,
};

/** The admin reads the list later the same day. */
const now = Date.parse(at) + 60_000;
const text = (language: 'en' | 'bg', mail: OrderMail) => mailStateText(translators[language], language, mail, now);
const time = (language: 'en' | 'bg') => formatDateTime(at, language, '');
const clock = (iso: string | null) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hour12: false }).format(Date.parse(iso!));

describe('the state of an order’s e-mail in the admin', () => {
  it.each<[string, OrderMail]>([
    ['waiting for its first try', confirmation],
    // The worker has claimed it (the try is counted as it starts) and the mail server has not answered yet.
    ['being sent for the first time', { ...confirmation, attempts: 1 }],
    ['handed back untried by a process that stopped', { ...confirmation, attempts: 1, nextAttemptAt: '2026-11-25T15:20:00.000Z' }],
  ])('a message %s is to be sent at its time, not tried "next"', (_case, mail) => {
    // Today: the time alone, as "17:18".
    expect(text('en', mail)).toBe(`Queued, to be sent at ${clock(mail.nextAttemptAt)}`);
    expect(text('bg', mail)).toBe(`Чака изпращане в ${clock(mail.nextAttemptAt)}`);
  });

  it('a message whose try failed waits for its next try', () => {
    const failedOnce = { ...confirmation, attempts: 1, lastError: 'connect ECONNREFUSED 127.0.0.1:25' };
    expect(text('en', failedOnce)).toBe(`Queued, next try at ${clock(at)}`);
    expect(text('bg', failedOnce)).toBe(`В опашката, следващ опит на ${clock(at)}`);
  });

  it('names the day of a time that is not today', () => {
    const tomorrow = { ...confirmation, nextAttemptAt: '2026-11-27T09:00:00.000Z' };
    expect(text('en', tomorrow)).toBe(`Queued, to be sent at ${formatDateTime(tomorrow.nextAttemptAt, 'en', '')}`);
    expect(text('bg', tomorrow)).toMatch(/^Чака изпращане в 27\.11\.2026 г\., \d{1,2}:\d\d$/);
  });

  it('says when a message was sent, why it failed and that it was replaced', () => {
    expect(text('en', { ...confirmation, state: 'sent', attempts: 1, sentAt: at, nextAttemptAt: null })).toBe(`Sent ${time('en')}`);
    expect(text('bg', { ...confirmation, state: 'failed', attempts: 1, lastError: '550 Mailbox unavailable', nextAttemptAt: null })).toBe('Неуспешен: 550 Mailbox unavailable');
    expect(text('en', { ...confirmation, state: 'superseded', nextAttemptAt: null })).toBe('Not sent: replaced by a later status change');
  });
});

describe('how soon the admin’s order asks again while an e-mail waits', () => {
  const now = Date.parse(at);
  const waitingFor = (ms: number): OrderMail => ({ ...confirmation, nextAttemptAt: new Date(now + ms).toISOString() });

  it.each<[string, OrderMail[], number | false]>([
    ['nothing waits', [{ ...confirmation, state: 'sent', sentAt: at, nextAttemptAt: null }], false],
    // Send again: the copy is due at once, so its "Sent" shows within half a second, not three.
    ['a copy just queued', [waitingFor(0)], 500],
    ['a message due in a second', [waitingFor(1000)], 1500],
    ['a status update due in a minute', [waitingFor(60_000)], 3000],
    ['a message long past its time (a slow mail server)', [waitingFor(-60_000)], 3000],
    ['the soonest of several', [waitingFor(60_000), waitingFor(200)], 700],
  ])('%s', (_case, mails, interval) => {
    expect(mailPollInterval(mails, now)).toBe(interval);
  });
});
