import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { keepPrivate, makePrivateFolder } from './private-files.js';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

it('takes every right of group and others from a folder and all inside it, and leaves links alone', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'private-files-'));
  folders.push(root);
  await mkdir(path.join(root, 'db', 'base'), { recursive: true });
  await writeFile(path.join(root, 'db', 'base', '1259'), 'rows');
  await writeFile(path.join(root, 'notes.txt'), 'x');
  await writeFile(path.join(root, 'own.key'), 'x');
  await chmod(path.join(root, 'db', 'base', '1259'), 0o666);
  await chmod(path.join(root, 'notes.txt'), 0o644);
  await chmod(path.join(root, 'own.key'), 0o600);
  await chmod(path.join(root, 'db'), 0o755);
  await chmod(path.join(root, 'db', 'base'), 0o777);
  await chmod(root, 0o755);
  const outside = path.join(root, '..', `${path.basename(root)}-outside`);
  await writeFile(outside, 'not ours');
  folders.push(outside);
  await chmod(outside, 0o644);
  await symlink(outside, path.join(root, 'link'));

  expect(await keepPrivate(root)).toBe(5);
  expect(await modeOf(root)).toBe(0o700);
  expect(await modeOf(path.join(root, 'db'))).toBe(0o700);
  expect(await modeOf(path.join(root, 'db', 'base'))).toBe(0o700);
  expect(await modeOf(path.join(root, 'db', 'base', '1259'))).toBe(0o600);
  expect(await modeOf(path.join(root, 'notes.txt'))).toBe(0o600);
  expect(await modeOf(path.join(root, 'own.key'))).toBe(0o600);
  expect(await modeOf(outside)).toBe(0o644);
  // Nothing left to change the second time; a folder that does not exist is no error.
  expect(await keepPrivate(root)).toBe(0);
  expect(await keepPrivate(path.join(root, 'missing'))).toBe(0);
});

it('creates folders that only their owner can enter, whatever the umask', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'private-files-'));
  folders.push(root);
  const previous = process.umask(0);
  try {
    await makePrivateFolder(path.join(root, 'data', 'outbox'));
  } finally {
    process.umask(previous);
  }
  expect(await modeOf(path.join(root, 'data'))).toBe(0o700);
  expect(await modeOf(path.join(root, 'data', 'outbox'))).toBe(0o700);
  expect(await readdir(path.join(root, 'data'))).toEqual(['outbox']);
});
