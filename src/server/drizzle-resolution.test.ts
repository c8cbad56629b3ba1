import { spawnSync } from 'node:child_process';
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { projectPath } from './project-path.js';

// In a process of its own: hooks, once registered, stay for the whole process. The first hook
// registered runs last, so this one sees only what the shop's hook passes on.
const CHILD = `
import module from 'node:module';
let drizzleImportsResolvedByNode = 0;
module.registerHooks({
  resolve(specifier, context, nextResolve) {
    if (context.parentURL?.includes('/node_modules/drizzle-orm/') && specifier.startsWith('.')) drizzleImportsResolvedByNode++;
    return nextResolve(specifier, context);
  },
});
if (process.env.WITH_HOOK === 'true') (await import(process.env.HOOK_MODULE)).resolveDrizzleFilesDirectly();
const { pgTable } = await import('drizzle-orm/pg-core');
const { drizzle } = await import('drizzle-orm/node-postgres');
console.log(JSON.stringify({ drizzleImportsResolvedByNode, loaded: typeof pgTable === 'function' && typeof drizzle === 'function' }));
`;

function loadDrizzle(withHook: boolean): { drizzleImportsResolvedByNode: number; loaded: boolean } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD], {
    cwd: projectPath(),
    env: { ...process.env, WITH_HOOK: String(withHook), HOOK_MODULE: pathToFileURL(projectPath('src/server/drizzle-resolution.ts')).href },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { drizzleImportsResolvedByNode: number; loaded: boolean };
}

// Node 20 has no synchronous module hooks; the shop registers nothing there, and it has nothing to skip.
describe.skipIf(typeof (module as { registerHooks?: unknown }).registerHooks !== 'function')('Drizzle on Node 22', () => {
  it("resolves Drizzle's imports of its own files without Node's scope lookup, and Drizzle loads and works the same", () => {
    const plain = loadDrizzle(false);
    const hooked = loadDrizzle(true);
    expect(plain.loaded).toBe(true);
    expect(hooked.loaded).toBe(true);
    // Without the hook Node resolves each of Drizzle's hundreds of internal imports, reading the package's scope for each.
    expect(plain.drizzleImportsResolvedByNode).toBeGreaterThan(100);
    expect(hooked.drizzleImportsResolvedByNode).toBe(0);
  });
});
