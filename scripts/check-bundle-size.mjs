// Fails when the JavaScript a first visit to the home page downloads exceeds the budget (gzipped).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// React's code on Preact (docs/decisions/0022) left room under the performance issue's 85 KB.
const BUDGET_BYTES = 85 * 1024;
const clientDir = path.resolve('dist/client');
const manifest = JSON.parse(readFileSync(path.join(clientDir, '.vite/manifest.json'), 'utf8'));

const gzippedSize = (file) => gzipSync(readFileSync(path.join(clientDir, file))).length;

/** The entry and everything it imports statically: what the browser must load before the home page runs. */
function staticClosure(key, seen = new Set()) {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) staticClosure(imported, seen);
  return seen;
}

// index.html loads every entry: the app's, and the small script that starts the requests its first render waits for.
const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
const initial = [...entries.reduce((seen, key) => staticClosure(key, seen), new Set())].map((key) => manifest[key].file);
const languageChunks = Object.entries(manifest)
  .filter(([key]) => /i18n\/[a-z]{2}\.json$/.test(key))
  .map(([key, chunk]) => ({ key, size: gzippedSize(chunk.file) }));
const largestLanguage = Math.max(0, ...languageChunks.map((chunk) => chunk.size));
const total = initial.reduce((sum, file) => sum + gzippedSize(file), 0) + largestLanguage;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const file of initial) console.warn(`  ${file}: ${kb(gzippedSize(file))}`);
for (const chunk of languageChunks) console.warn(`  ${chunk.key}: ${kb(chunk.size)}`);
console.warn(`Home page initial JavaScript: ${kb(total)} (${total} bytes) gzipped (budget ${kb(BUDGET_BYTES)}, texts of one language included)`);
if (total > BUDGET_BYTES) {
  console.error('The home page JavaScript is over budget.');
  process.exit(1);
}
