// Part of `npm test`, beside the browser tests: when SECOND_NODE names another Node.js binary, the
// unit and API tests run again on it, so the shop is known to work on both versions. CI runs every
// check on Node 22 and this pass on Node 20 (.ci/run); without SECOND_NODE there is nothing to do.
import { spawnSync } from 'node:child_process';

const node = process.env.SECOND_NODE;
if (node) {
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' });
  if (version.status !== 0) throw new Error(`SECOND_NODE=${node} does not run: ${version.stderr}`);
  console.warn(`Unit and API tests again on Node ${version.stdout.trim()} (${node})`);
  const run = spawnSync(node, ['node_modules/vitest/vitest.mjs', 'run'], { stdio: 'inherit' });
  process.exitCode = run.status ?? 1;
}
