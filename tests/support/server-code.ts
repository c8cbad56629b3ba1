import { readdirSync, statSync } from 'node:fs';
import { projectPath } from '#server/project-path.js';

/**
 * Where a test runs the server's code in a process of its own (a server, a command): compiled, from
 * dist/node, when `npm run build` has compiled every source file since it last changed, as `npm test`
 * does before the tests; otherwise from the sources through tsx. Started compiled, a server process
 * took about 15% less CPU, and the API tests start about a hundred processes.
 */
let compiled: boolean | undefined;

/**
 * True when dist/node has a compiled file for every source file of src/server and src/shared and no
 * source changed since the last build, which rewrites dist/node/package.json last
 * (scripts/write-server-package.mjs). Outputs are not compared one by one: `tsc -b` leaves an output
 * alone when its source's text is unchanged, however new the source file is.
 */
function buildIsCurrent(): boolean {
  const builtAt = statSync(projectPath('dist/node/package.json'), { throwIfNoEntry: false })?.mtimeMs;
  if (builtAt === undefined) return false;
  for (const folder of ['server', 'shared']) {
    for (const file of readdirSync(projectPath('src', folder), { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
      if (statSync(projectPath('src', folder, file)).mtimeMs > builtAt) return false;
      if (!statSync(projectPath('dist/node', folder, file.replace(/\.ts$/, '.js')), { throwIfNoEntry: false })) return false;
    }
  }
  return true;
}

/** The module to import or run for a file of src/server (for example 'backup-cli.ts'). */
export function serverModule(file: string): string {
  compiled ??= buildIsCurrent();
  return compiled ? projectPath('dist/node/server', file.replace(/\.ts$/, '.js')) : projectPath('src/server', file);
}

/** Node's arguments before a module of src/server or code that imports one (-e). */
export function serverNodeArguments(): string[] {
  compiled ??= buildIsCurrent();
  return compiled ? [] : ['--import', 'tsx'];
}

/** The arguments that run a command of src/server, such as 'backup-cli.ts', with its own arguments. */
export function serverCommand(file: string, ...args: string[]): string[] {
  return [...serverNodeArguments(), serverModule(file), ...args];
}

