// `npm run test:unit`: the unit and API tests (Vitest). Alone it is `vitest run` (arguments pass on),
// every API test on PGlite and, when TEST_DATABASE_URL names a server, on PostgreSQL too.
//
// When SECOND_NODE names another Node.js binary as well (CI: Node 20 beside the Node 22 that runs
// everything else, .ci/run), the tests run in two passes that share out the databases: on this Node
// the API tests run on PostgreSQL, on SECOND_NODE on PGlite. Every API test still runs on both
// databases, every unit test and every test that has no database choice runs on both Node versions
// (but those of the embedded database's own features, which run on PGlite's pass alone), and nothing
// runs twice on the same database. The passes run side by side, one worker each, their output lines
// labelled: a pass spends much of its time waiting (for a server process to start, a mail server's
// pause, a shutdown's deadline) while the other computes.
//
// `--then-browser` (`npm test`) runs the browser tests (`npm run test:browser`) as soon as the first
// pass ends, beside the second, which is the longer: one Vitest worker leaves a core of two idle.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

const VITEST = 'node_modules/vitest/vitest.mjs';
const secondNode = process.env.SECOND_NODE;

/** Runs Vitest on `node` with these extra settings, each output line after `label` when there is one; resolves to whether it passed. */
function vitest(node, environment, args, label) {
  return new Promise((resolve) => {
    const run = spawn(node, [VITEST, 'run', ...args], { env: { ...process.env, ...environment }, stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (label) {
      for (const [stream, out] of [
        [run.stdout, process.stdout],
        [run.stderr, process.stderr],
      ]) {
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`[${label}] ${line}\n`));
      }
    }
    run.on('close', (code) => resolve(code === 0));
  });
}

const thenBrowser = process.argv.includes('--then-browser');
const vitestArgs = process.argv.slice(2).filter((arg) => arg !== '--then-browser');

/** After a Vitest pass that passed, with `--then-browser`, `npm run test:browser`; resolves to whether all passed. */
async function thenBrowserTests(passed) {
  if (!passed || !thenBrowser) return passed;
  return new Promise((resolve) => spawn('npm', ['run', 'test:browser'], { stdio: 'inherit' }).on('close', (code) => resolve(code === 0)));
}

if (!secondNode) {
  process.exitCode = (await thenBrowserTests(await vitest(process.execPath, {}, vitestArgs))) ? 0 : 1;
} else {
  const version = spawnSync(secondNode, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`SECOND_NODE=${secondNode} does not run: ${version.stderr}`);
  // Without a PostgreSQL server both passes run on PGlite, which is all there is.
  const hereTargets = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  const hereLabel = `node ${process.version}, ${hereTargets}`;
  const thereLabel = `node ${version.stdout.trim()}, pglite`;
  const [here, there] = await Promise.all([
    vitest(process.execPath, { TEST_DATABASE_TARGETS: hereTargets }, ['--maxWorkers=1', ...vitestArgs], hereLabel).then(thenBrowserTests),
    vitest(secondNode, { TEST_DATABASE_TARGETS: 'pglite', TEST_DATABASE_URL: '' }, ['--maxWorkers=1', ...vitestArgs], thereLabel),
  ]);
  process.exitCode = here && there ? 0 : 1;
}
