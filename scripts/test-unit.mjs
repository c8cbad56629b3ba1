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
// `--then-browser` (`npm test`) runs what `npm run test:browser` runs as well. With one pass, all of it
// after the pass. With two, the browser tests (Playwright) start as soon as the first pass ends,
// beside the second, which one Vitest worker leaves a core of two idle; the bundle budget and the
// benchmark's smoke run follow the second pass, beside the browser tests, instead of holding up
// their start.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';

const VITEST = 'node_modules/vitest/vitest.mjs';
const PLAYWRIGHT = 'node_modules/@playwright/test/cli.js';
const secondNode = process.env.SECOND_NODE;

/** Runs a command with these extra settings, each output line after `label` when there is one; resolves to whether it passed. */
function run(command, args, environment = {}, label = undefined) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: { ...process.env, ...environment }, stdio: label ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    if (label) {
      for (const [stream, out] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => out.write(`[${label}] ${line}\n`));
      }
    }
    child.on('close', (code) => resolve(code === 0));
  });
}

const vitest = (node, environment, args, label) => run(node, [VITEST, 'run', ...args], environment, label);

const thenBrowser = process.argv.includes('--then-browser');
const vitestArgs = process.argv.slice(2).filter((arg) => arg !== '--then-browser');

if (!secondNode) {
  const passed = await vitest(process.execPath, {}, vitestArgs);
  process.exitCode = passed && (!thenBrowser || (await run('npm', ['run', 'test:browser']))) ? 0 : 1;
} else {
  const version = spawnSync(secondNode, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`SECOND_NODE=${secondNode} does not run: ${version.stderr}`);
  // Without a PostgreSQL server both passes run on PGlite, which is all there is.
  const hereTargets = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
  // What follows the passes, in the order the passes end; nothing more starts once a pass has failed.
  const after = thenBrowser ? [() => run(process.execPath, [PLAYWRIGHT, 'test']), () => run('npm', ['run', 'test:bundle-and-bench'], {}, 'bundle and benchmark')] : [];
  let failed = false;
  const thenNext = async (passed) => {
    failed ||= !passed;
    const next = failed ? undefined : after.shift();
    return next ? next() : passed;
  };
  const results = await Promise.all([
    vitest(process.execPath, { TEST_DATABASE_TARGETS: hereTargets }, ['--maxWorkers=1', ...vitestArgs], `node ${process.version}, ${hereTargets}`).then(thenNext),
    vitest(secondNode, { TEST_DATABASE_TARGETS: 'pglite', TEST_DATABASE_URL: '' }, ['--maxWorkers=1', ...vitestArgs], `node ${version.stdout.trim()}, pglite`).then(thenNext),
  ]);
  process.exitCode = results.every(Boolean) && !failed && after.length === 0 ? 0 : 1;
}
