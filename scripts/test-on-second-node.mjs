// Part of `npm test`, beside the browser tests: when SECOND_NODE names another Node.js binary, the
// unit and API tests run again on it, so the shop is known to work on both versions. CI runs every
// check on Node 22 and this pass on Node 20 (.ci/run); without SECOND_NODE there is nothing to do.
// This pass runs on the embedded database alone and with one worker: the first pass has run every
// API test on PostgreSQL too, and the browser tests beside it need the machine's other core. It also
// runs at a lower priority than they do: the browser tests wait on a server for what a person would
// wait for (an e-mail, a page), and a pass that checks only correctness takes what CPU they leave.
// Its tests' time limits are four times the usual for that reason: they are there to catch a hang,
// and a test given a tenth of a core for minutes is slow, not hung.
import { spawnSync } from 'node:child_process';
import { setPriority } from 'node:os';

const node = process.env.SECOND_NODE;
if (node) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`SECOND_NODE=${node} does not run: ${version.stderr}`);
  console.warn(`Unit and API tests again on Node ${version.stdout.trim()} (${node})`);
  setPriority(10);
  const environment = { ...process.env };
  delete environment.TEST_DATABASE_URL;
  const run = spawnSync(node, ['node_modules/vitest/vitest.mjs', 'run', '--maxWorkers=1', '--testTimeout=120000', '--hookTimeout=240000'], { stdio: 'inherit', env: environment });
  process.exitCode = run.status ?? 1;
}
