// `npm run test:unit`: the unit and API tests (Vitest). Alone it is `vitest run` (arguments pass on),
// every API test on PGlite and, when TEST_DATABASE_URL names a server, on PostgreSQL too.
//
// When SECOND_NODE names another Node.js binary as well (CI: Node 20 beside the Node 22 that runs
// everything else, .ci/run), the tests run in two passes that share out the databases: on this Node
// the API tests run on PostgreSQL, then on SECOND_NODE on PGlite. Every API test still runs on both
// databases, every unit test and every test that has no database choice runs on both Node versions,
// and nothing runs twice on the same database. Each pass has one worker, which keeps both cores busy
// (the tests' server processes, PostgreSQL and PGlite's own work): measured on two cores, two
// workers, the two passes side by side, or the second pass beside the browser tests (581 s against
// 525 s one after the other) all took longer, waiting for CPU the other held.
import { spawnSync } from 'node:child_process';

const VITEST = 'node_modules/vitest/vitest.mjs';
const secondNode = process.env.SECOND_NODE;

/** Runs Vitest on `node` with these extra settings; returns whether it passed. */
function vitest(node, environment, args) {
  const run = spawnSync(node, [VITEST, 'run', ...args], { env: { ...process.env, ...environment }, stdio: 'inherit' });
  return run.status === 0;
}

if (!secondNode) {
  process.exitCode = vitest(process.execPath, {}, process.argv.slice(2)) ? 0 : 1;
} else {
  const version = spawnSync(secondNode, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`SECOND_NODE=${secondNode} does not run: ${version.stderr}`);
  // Without a PostgreSQL server both passes run on PGlite, which is all there is.
  const hereTargets = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  console.warn(`Unit and API tests on Node ${process.version}, the API tests on ${hereTargets}`);
  const here = vitest(process.execPath, { TEST_DATABASE_TARGETS: hereTargets }, ['--maxWorkers=1']);
  console.warn(`Unit and API tests on Node ${version.stdout.trim()} (${secondNode}), the API tests on pglite`);
  const there = vitest(secondNode, { TEST_DATABASE_TARGETS: 'pglite', TEST_DATABASE_URL: '' }, ['--maxWorkers=1']);
  process.exitCode = here && there ? 0 : 1;
}
