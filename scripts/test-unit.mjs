// `npm run test:unit`: the unit and API tests (Vitest). Alone it is `vitest run` (arguments pass on), every API test on
// PGlite and, when TEST_DATABASE_URL names a server, on PostgreSQL too.
//
// When SECOND_NODE names another Node.js binary as well (CI: Node 20 beside the Node 22 that runs
// everything else, .ci/run), the tests run in two passes side by side, one worker each, and the
// database targets are shared out between them: on this Node the API tests run on PostgreSQL, on
// SECOND_NODE on PGlite. Every API test still runs on both databases, every unit test and every
// test that has no database choice runs on both Node versions, and nothing runs twice on the same
// database. Side by side, each pass has a core; one after the other, or the second beside the
// browser tests, one of them waited for CPU the other held.
import { spawn, spawnSync } from 'node:child_process';

const VITEST = 'node_modules/vitest/vitest.mjs';
const secondNode = process.env.SECOND_NODE;
const databaseUrl = process.env.TEST_DATABASE_URL;

/** Runs Vitest on `node` with these extra settings, its output lines marked with `label`; resolves with its exit code. */
function vitest(node, label, environment, args) {
  const child = spawn(node, [VITEST, 'run', ...args], { env: { ...process.env, ...environment, FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) process.stdout.write(`[${label}] ${line}\n`);
    });
    stream.on('end', () => rest && process.stdout.write(`[${label}] ${rest}\n`));
  }
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

if (!secondNode) {
  const run = spawnSync(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
} else {
  const version = spawnSync(secondNode, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`SECOND_NODE=${secondNode} does not run: ${version.stderr}`);
  const here = `node ${process.versions.node}`;
  const there = `node ${version.stdout.trim().replace(/^v/, '')}`;
  // Without a PostgreSQL server both passes run on PGlite, which is all there is.
  const hereTargets = databaseUrl ? 'postgres' : 'pglite';
  console.warn(`Unit and API tests on ${here} (API tests on ${hereTargets}) and on ${there} (API tests on pglite), side by side`);
  const codes = await Promise.all([
    vitest(process.execPath, here, { TEST_DATABASE_TARGETS: hereTargets }, ['--maxWorkers=1']),
    vitest(secondNode, there, { TEST_DATABASE_TARGETS: 'pglite', TEST_DATABASE_URL: '' }, ['--maxWorkers=1']),
  ]);
  process.exitCode = codes.some((code) => code !== 0) ? 1 : 0;
}
