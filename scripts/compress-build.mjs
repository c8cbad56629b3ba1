// Writes a Brotli (.br) and a gzip (.gz) copy beside each text file of the built app, which the
// server sends to browsers that accept them (@fastify/static's preCompressed): compressed once at
// build time, at the highest levels, instead of at every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const clientDir = path.resolve('dist/client');
const TEXT_FILES = /\.(js|css|svg|json|webmanifest|txt|xml)$/;
/** Below this a compressed copy saves too little to be worth a file. */
const MIN_BYTES = 1024;

function* files(folder) {
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name);
    if (statSync(file).isDirectory()) yield* files(file);
    else yield file;
  }
}

let before = 0;
let after = 0;
for (const file of files(clientDir)) {
  // The page and the worker are served by the server itself, with the settings written in.
  const name = path.relative(clientDir, file);
  if (!TEXT_FILES.test(file) || name === 'sw.js' || name.startsWith('.vite')) continue;
  const content = readFileSync(file);
  if (content.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length } });
  const gzip = gzipSync(content, { level: 9 });
  writeFileSync(`${file}.br`, brotli);
  writeFileSync(`${file}.gz`, gzip);
  before += content.length;
  after += brotli.length;
}
console.warn(`Compressed the app's files: ${(before / 1024).toFixed(0)} KB, ${(after / 1024).toFixed(0)} KB with Brotli`);
