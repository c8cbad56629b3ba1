import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each API test file opens its own databases; two cores keep this fast without starving them.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'tests/lint/**/*.test.ts', 'tests/docs/**/*.test.ts'],
          exclude: ['**/*.isolated.test.{ts,tsx}'],
          // The unit test files share a worker's modules too: importing them anew for each file was
          // half of this project's CPU (72 against 37 CPU-seconds for the project alone).
          isolate: false,
        },
      },
      {
        extends: true,
        // A unit test that replaces modules (vi.mock) runs with modules of its own: in a shared module
        // graph its mocks could miss modules already loaded, or reach other files. Lint holds the name.
        test: { name: 'unit-isolated', include: ['src/**/*.isolated.test.{ts,tsx}'] },
      },
      {
        extends: true,
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          // Migrates one database of each kind per run; every test database starts as a copy of it.
          globalSetup: ['tests/support/database-templates.ts'],
          // The API test files share a worker's modules instead of each importing the server anew:
          // that import was a fifth of the run. Each file still makes its own apps and databases.
          isolate: false,
        },
      },
    ],
  },
});
