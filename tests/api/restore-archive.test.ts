import { execFile } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BackupError, prepareBackup } from '#server/backup/backup-archive.js';
import { restoreBackup } from '#server/backup/restore.js';
import { loadConfig } from '#server/config.js';
import { FileImageStore } from '#server/images/file-image-store.js';
import { createMailer } from '#server/mail/mailer.js';
import { projectPath } from '#server/project-path.js';
import { startServerProcess } from '../support/server-process.js';
import { TEST_INDEX_HTML, testsEmbeddedDatabase } from './test-app.js';
import { serverCommand } from '../support/server-code.js';

// A restore brings customers' data back: what it writes is the shop's user's alone, and an archive
// that is not a sound backup is refused with what is wrong with it, before anything is written.

let work: string;
/** A backup as `npm run backup` writes it, of a shop with one photo's three widths. */
let genuine: string;
let manifestText: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'shop-restore-archive-'));
  const shop = path.join(work, 'shop');
  await mkdir(path.join(shop, 'images', 'nails'), { recursive: true });
  for (const width of [320, 640, 960]) await writeFile(path.join(shop, 'images', 'nails', `p_1-${width}.webp`), `pixels ${width}`);
  const client = await PGlite.create({ loadDataDir: new Blob([await readFile(inject('pgliteSnapshot'))]), extensions: { pg_trgm } });
  try {
    const prepared = await prepareBackup(client, shop);
    genuine = path.join(work, 'genuine.tar.gz');
    await pipeline(prepared.archive(), createWriteStream(genuine));
    manifestText = JSON.stringify(prepared.manifest);
    await prepared.discard();
  } finally {
    await client.close();
  }
}, 120_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

/** Every file's and folder's mode under a folder, the folder's own included, by its path. */
async function modesUnder(folder: string): Promise<Map<string, string>> {
  const modes = new Map([['.', `d${((await stat(folder)).mode & 0o777).toString(8)}`]]);
  for (const entry of await readdir(folder, { recursive: true, withFileTypes: true })) {
    const full = path.join(entry.parentPath, entry.name);
    modes.set(path.relative(folder, full), `${entry.isDirectory() ? 'd' : 'f'}${((await stat(full)).mode & 0o777).toString(8)}`);
  }
  return modes;
}

const silentLog = { info: () => {}, warn: () => {}, error: () => {} } as unknown as FastifyBaseLogger;

const loose = (modes: Map<string, string>) => [...modes].filter(([, mode]) => mode !== 'd700' && mode !== 'f600');

describe.skipIf(!testsEmbeddedDatabase)('restored and written data', () => {
  it('is the shop user’s alone: restored files 0600 and folders 0700, and a server started on looser ones tightens them', { timeout: 120_000 }, async () => {
    const root = await mkdtemp(path.join(work, 'modes-'));
    const dataDir = path.join(root, 'data');
    await restoreBackup(genuine, dataDir);
    const restored = await modesUnder(dataDir);
    expect(restored.size).toBeGreaterThan(500);
    expect(restored.get('images/nails/p_1-320.webp')).toBe('f600');
    expect(loose(restored)).toEqual([]);

    // As a copy made with `cp -r` under a permissive umask would leave it.
    for (const [name, mode] of restored) await chmod(path.join(dataDir, name), mode.startsWith('d') ? 0o755 : 0o666);
    const clientDir = path.join(root, 'client');
    await mkdir(clientDir);
    await writeFile(path.join(clientDir, 'index.html'), TEST_INDEX_HTML);
    const server = await startServerProcess(clientDir, { DATA_DIR: dataDir });
    try {
      expect(loose(await modesUnder(dataDir))).toEqual([]);
    } finally {
      await server.stop();
    }
    expect(loose(await modesUnder(dataDir))).toEqual([]);
  });

  it('writes the development outbox and the photos 0600 in folders of 0700, whatever the umask', async () => {
    const dataDir = path.join(await mkdtemp(path.join(work, 'written-')), 'data');
    const previous = process.umask(0);
    try {
      const mailer = createMailer(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir }), silentLog);
      await mailer.send({ to: 'ana@example.com', subject: 'Your order', text: 'Thank you', html: '<p>Thank you</p>' });
      await new FileImageStore(dataDir).put('nails/p_2.webp', new Map([[320, Buffer.from('a')], [640, Buffer.from('b')], [960, Buffer.from('c')]]));
    } finally {
      process.umask(previous);
    }
    const modes = await modesUnder(dataDir);
    expect([...modes.keys()].filter((name) => name.startsWith('outbox/'))).toHaveLength(2);
    expect(modes.get('images/nails/p_2-320.webp')).toBe('f600');
    expect(loose(modes)).toEqual([]);
  });
});

interface Entry {
  path: string;
  type?: 'File' | 'Directory' | 'SymbolicLink';
  content?: string | Buffer;
  linkpath?: string;
}

/** A gzipped tar archive of exactly these entries, in this order, as a hand-made or damaged backup may hold. */
function tarArchive(entries: Entry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const type = entry.type ?? 'File';
    const content = Buffer.from(entry.content ?? '');
    const header = Buffer.alloc(512);
    const field = (offset: number, length: number, value: string) => header.write(value, offset, length, 'latin1');
    const octal = (offset: number, length: number, value: number) => field(offset, length, `${value.toString(8).padStart(length - 1, '0')}\0`);
    field(0, 100, entry.path);
    octal(100, 8, type === 'Directory' ? 0o755 : 0o644);
    octal(108, 8, 0);
    octal(116, 8, 0);
    octal(124, 12, type === 'File' ? content.length : 0);
    octal(136, 12, 1_700_000_000);
    field(148, 8, '        ');
    field(156, 1, { File: '0', Directory: '5', SymbolicLink: '2' }[type]);
    if (entry.linkpath) field(157, 100, entry.linkpath);
    field(257, 8, 'ustar\u000000');
    let sum = 0;
    for (const byte of header) sum += byte;
    field(148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
    blocks.push(header);
    if (type === 'File') blocks.push(content, Buffer.alloc((512 - (content.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

describe.skipIf(!testsEmbeddedDatabase)('a backup archive that is not sound', () => {
  const manifest = () => ({ path: 'manifest.json', content: manifestText });
  const database = { path: 'database.tar', content: 'not a data directory' };
  const photo = { path: 'images/nails/p_1-320.webp', content: 'pixels' };
  const cases: Array<[string, () => Entry[], RegExp]> = [
    ['a folder, then a file of the same name', () => [manifest(), database, { path: 'images/', type: 'Directory' }, photo, { path: 'images/nails', content: 'x' }], /images\/nails is there twice, or both as a file and as a folder/],
    ['a file, then a folder inside it', () => [manifest(), database, { path: 'images/nails', content: 'x' }, photo], /images\/nails\/p_1-320\.webp is inside images\/nails, which the archive also holds as a file/],
    ['a shop folder as a file', () => [manifest(), database, { path: 'images', content: 'x' }], /images is a file where the backup keeps a folder/],
    ['a path leading out of the folder', () => [manifest(), database, { path: 'images/../../escaped.txt', content: 'x' }], /"images\/\.\.\/\.\.\/escaped\.txt" names a place outside/],
    ['an absolute path', () => [manifest(), database, { path: '/tmp/escaped.txt', content: 'x' }], /"\/tmp\/escaped\.txt" names a place outside/],
    ['a symbolic link', () => [manifest(), database, { path: 'images/nails/p_1-320.webp', type: 'SymbolicLink', linkpath: '/etc/passwd' }], /images\/nails\/p_1-320\.webp is a SymbolicLink, and a backup holds only files and folders/],
    ['an entry of another kind', () => [manifest(), database, { path: 'secrets.txt', content: 'x' }], /secrets\.txt is not part of a shop backup/],
    ['the same file twice', () => [manifest(), database, photo, photo], /images\/nails\/p_1-320\.webp is there twice/],
    ['no database', () => [manifest(), photo], /it holds no database\.tar/],
    ['the database as a folder', () => [manifest(), { path: 'database.tar/', type: 'Directory' }], /database\.tar is a folder where the backup keeps a file/],
    ['a database that is not one', () => [manifest(), database], /The database in .* could not be loaded \(.*\); it is damaged or not a shop backup/],
    ['a manifest that is not JSON', () => [{ path: 'manifest.json', content: '{"format":1,' }, database], /its manifest\.json is not JSON/],
    ['a manifest without counts', () => [{ path: 'manifest.json', content: JSON.stringify({ ...JSON.parse(manifestText), counts: undefined }) }, database], /its manifest\.json lacks counts\.orders, counts\.products, counts\.productPhotos, counts\.imageFiles/],
  ];

  it.each(cases)('is refused with what is wrong when it holds %s, and nothing is restored', { timeout: 60_000 }, async (_name, entries, message) => {
    const root = await mkdtemp(path.join(work, 'hostile-'));
    const file = path.join(root, 'backup.tar.gz');
    await writeFile(file, tarArchive(entries()));
    const dataDir = path.join(root, 'data');
    const refusal = await restoreBackup(file, dataDir).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(BackupError);
    expect((refusal as Error).message).toMatch(message);
    expect(existsSync(dataDir)).toBe(false);
    expect(await readdir(root)).toEqual(['backup.tar.gz']);
    expect(existsSync(path.join(tmpdir(), 'escaped.txt'))).toBe(false);
  });

  it('is refused into an empty folder, which stays empty, and when cut short', { timeout: 60_000 }, async () => {
    const root = await mkdtemp(path.join(work, 'cut-'));
    const dataDir = path.join(root, 'data');
    await mkdir(dataDir);
    const whole = await readFile(genuine);
    const cut = path.join(root, 'cut.tar.gz');
    await writeFile(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    await expect(restoreBackup(cut, dataDir)).rejects.toThrow(/is not a readable shop backup/);
    expect(await readdir(dataDir)).toEqual([]);
  });

  it('makes `npm run restore` say what was wrong and exit with 1, without a stack trace', { timeout: 120_000 }, async () => {
    const root = await mkdtemp(path.join(work, 'command-'));
    const file = path.join(root, 'backup.tar.gz');
    await writeFile(file, tarArchive([manifest(), database, { path: 'images/', type: 'Directory' }, photo, { path: 'images/nails', content: 'x' }]));
    const dataDir = path.join(root, 'data');
    const { DATABASE_URL: _ignored, ...inherited } = process.env;
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(process.execPath, serverCommand('restore-cli.ts', file), { cwd: projectPath(), env: { ...inherited, NODE_ENV: 'test', DATA_DIR: dataDir }, timeout: 100_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
      );
    });
    expect(result.code, result.output).toBe(1);
    expect(result.output).toContain(`${file} is not a sound shop backup: images/nails is there twice, or both as a file and as a folder. Nothing was restored.`);
    expect(result.output).not.toMatch(/\n\s+at /);
    expect(existsSync(dataDir)).toBe(false);
  });
});
