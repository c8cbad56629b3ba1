import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { projectPath } from '#server/project-path.js';

const eslint = new ESLint({ cwd: projectPath() });
const PROBE = `import { vi } from 'vitest';\nvi.mock('react', () => ({}));\n`;

async function syntaxErrors(filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(PROBE, { filePath });
  return result!.messages.filter((message) => message.ruleId === 'no-restricted-syntax').map((message) => message.message);
}

describe('unit tests that replace modules run apart (vitest.config.ts)', () => {
  it('refuses vi.mock in a test file that shares its modules', async () => {
    expect(await syntaxErrors('src/client/cart/probe.test.ts')).toEqual([expect.stringContaining('is named *.isolated.test.ts')]);
    expect(await syntaxErrors('src/server/probe.test.ts')).toHaveLength(1);
  });

  it('allows it in an *.isolated.test.ts file', async () => {
    expect(await syntaxErrors('src/client/cart/probe.isolated.test.ts')).toEqual([]);
  });
});
