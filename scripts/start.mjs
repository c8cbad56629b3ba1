// `npm start`: builds the shop when the build is missing or older than its sources, then serves it.
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stamp = path.join(root, 'dist', '.build-stamp');
const sources = ['src', 'package.json', 'package-lock.json', 'vite.config.ts', 'tsconfig.base.json', 'tsconfig.server.json'];

function newestChange(entry) {
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(info.mtimeMs, ...readdirSync(entry).map((name) => newestChange(path.join(entry, name))));
}

const sourcesChangedAt = Math.max(...sources.map((source) => path.join(root, source)).filter(existsSync).map(newestChange));
if (!existsSync(stamp) || statSync(stamp).mtimeMs < sourcesChangedAt) {
  console.warn('Building the shop...');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
  writeFileSync(stamp, new Date().toISOString());
}

await import(path.join(root, 'dist', 'node', 'server', 'main.js'));
