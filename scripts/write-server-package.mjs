// Part of `npm run build`: dist/node gets its own package.json, so that the compiled server's
// #server/ and #shared/ imports name its own files (dist/node/server/...), where the project's
// package.json names the sources (src/server/...) that tsx, Vite and TypeScript read. Written after
// the compile, at every build, its time is when dist/node last matched the sources (tests/support/server-code.ts).
import { readFileSync, writeFileSync } from 'node:fs';

const project = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const imports = Object.fromEntries(
  Object.entries(project.imports)
    .filter(([, target]) => !target.startsWith('./src/client/'))
    .map(([name, target]) => [name, target.replace(/^\.\/src\//, './')]),
);
writeFileSync(new URL('../dist/node/package.json', import.meta.url), `${JSON.stringify({ type: 'module', imports }, null, 2)}\n`);
