import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutboxEntry } from '#server/mail/mailer.js';
import type { TestApp } from './test-app.js';

let clientNumber = 0;
/** A different client address per call, so that the per-client rate limit stays out of the way. */
export const nextClientAddress = () => `10.9.${Math.floor(++clientNumber / 250)}.${clientNumber % 250}`;

/** Every sign-in link the development outbox holds for the address, newest first. */
export async function outboxLinks(testApp: TestApp, email: string): Promise<string[]> {
  const folder = path.join(testApp.dataDir, 'outbox');
  const files = (await readdir(folder)).filter((file) => file.endsWith('.json')).sort().reverse();
  const links: string[] = [];
  for (const file of files) {
    const entry = JSON.parse(await readFile(path.join(folder, file), 'utf8')) as OutboxEntry;
    if (entry.to === email && entry.link) links.push(entry.link);
  }
  return links;
}

/** The newest sign-in link the development outbox holds for the address. */
export async function latestOutboxLink(testApp: TestApp, email: string): Promise<string> {
  const [link] = await outboxLinks(testApp, email);
  if (!link) throw new Error(`No sign-in link for ${email} in the outbox`);
  return link;
}

export const tokenOf = (link: string) => new URL(link).searchParams.get('signInToken')!;

export async function requestLink(testApp: TestApp, email: string, language = 'en') {
  return testApp.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in-links',
    payload: { email, language },
    remoteAddress: nextClientAddress(),
  });
}

/** Signs in through the API, as the browser does, and returns the session cookie header. */
export async function signIn(testApp: TestApp, email: string): Promise<string> {
  const requested = await requestLink(testApp, email);
  if (requested.statusCode !== 202) throw new Error(`Link request failed: ${requested.body}`);
  const token = tokenOf(await latestOutboxLink(testApp, email));
  const response = await testApp.app.inject({ method: 'POST', url: '/api/auth/sessions', payload: { token, email } });
  if (response.statusCode !== 200) throw new Error(`Sign-in failed: ${response.body}`);
  const cookie = response.cookies.find((candidate) => candidate.name === 'session');
  return `session=${cookie!.value}`;
}
