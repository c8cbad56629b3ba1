import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'tests/api/**/*.test.ts', 'tests/lint/**/*.test.ts', 'tests/docs/**/*.test.ts'],
    environment: 'node',
    // Migrates one database of each kind per run; every test database starts as a copy of it.
    globalSetup: ['tests/support/database-templates.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each API test file opens its own databases; two cores keep this fast without starving them.
    maxWorkers: 2,
  },
});
