import { describe, expect, it } from 'vitest';
import { ruleMessages } from './lint-probe.js';

const PROBE = `import { vi } from 'vitest';\nvi.mock('react', () => ({}));\n`;
const syntaxErrors = (filePath: string) => ruleMessages(filePath, PROBE, 'no-restricted-syntax');

describe('unit tests that replace modules run apart (vitest.config.ts)', () => {
  it('refuses vi.mock in a test file that shares its modules', async () => {
    expect(await syntaxErrors('src/client/cart/probe.test.ts')).toEqual([expect.stringContaining('is named *.isolated.test.ts')]);
    expect(await syntaxErrors('src/server/probe.test.ts')).toHaveLength(1);
  });

  it('allows it in an *.isolated.test.ts file', async () => {
    expect(await syntaxErrors('src/client/cart/probe.isolated.test.ts')).toEqual([]);
  });
});
