import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Imports flow one way: client and server use shared; shared uses neither; the client never reaches the server.
 * The client's own layers, each importing only those below it:
 *   entry point    main.tsx: starts the app shell
 *   app shell      app/: the router composes the features
 *   features       features/<feature>/: pages and what only they use; they never import each other
 *   shared client  every other folder (ui/, api/, cart/, session/, orders/, addresses/, seo/, live/,
 *                  connectivity/, i18n/...) and the top-level files: what several features use
 * A module (src/shared, a folder of src/server or src/client, a feature, and the top-level files of
 * src/server and src/client) imports its own files by relative paths and every other module by its
 * name from package.json's "imports" (#server/..., #client/..., #shared/...), so that each rule
 * below is a plain pattern on those names (moduleBoundaries keeps relative paths inside).
 */
const noServer = [
  { regex: '^#server/', message: 'The client never imports server code.' },
  { group: ['node:*'], message: 'The client never imports server code.' },
];
const layering = [
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^#(?:server|client)/', message: 'src/shared is pure: it imports neither client nor server.' },
            { group: ['node:*', 'react', 'react-dom', 'drizzle-orm', 'drizzle-orm/*', 'fastify'], message: 'src/shared has no I/O, DOM or framework code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: noServer }] },
  },
  {
    // What several features use sits below them: a piece a feature and the shared client both need moves down here.
    files: ['src/client/**/*.{ts,tsx}'],
    ignores: ['src/client/main.tsx', 'src/client/app/**', 'src/client/features/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noServer,
            { regex: '^#client/(?:features|app)/', message: 'The shared client (ui/, api/, cart/, session/...) imports neither the features nor the app shell.' },
          ],
        },
      ],
    },
  },
  {
    // Features do not import each other or the app shell; the router composes them.
    files: ['src/client/features/*/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...noServer,
            { regex: '^#client/app/', message: 'Features do not import the app shell.' },
            { regex: '^#client/features/', message: 'Features do not import each other.' },
          ],
        },
      ],
    },
  },
  ...serverLayering(),
  ...moduleBoundaries(),
];

/**
 * Relative imports stay inside their module: a path that climbs out of it (or, from the top-level
 * files, down into a folder) names another module, which is imported by its name instead. A rule of
 * its own (typescript-eslint's copy of no-restricted-imports), so that it adds to the layer rules
 * above rather than replacing them. Folders are matched down to five levels below a module. Unit
 * tests are left out: they reach the helpers in tests/ by path.
 */
function moduleBoundaries() {
  const message = 'Another module is imported by its name (#server/..., #client/..., #shared/...), not by a relative path out of this one.';
  const rule = (files, regex, ignores = []) => ({
    files,
    ignores: [...ignores, '**/*.test.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ regex, message }] }] },
  });
  const levels = [0, 1, 2, 3, 4, 5];
  const within = (moduleGlob, extensions, ignores = []) =>
    levels.map((depth) => rule([`${moduleGlob}/${'*/'.repeat(depth)}*.${extensions}`], `^(?:\\.\\./){${depth + 1}}`, ignores));
  return [
    rule(['src/server/*.ts', 'src/client/*.{ts,tsx}'], '^(?:\\.\\./|\\./[^/]+/)'),
    ...within('src/shared', 'ts'),
    ...within('src/server/*', 'ts'),
    ...within('src/client/*', '{ts,tsx}', ['src/client/features/**']),
    ...within('src/client/features/*', '{ts,tsx}'),
  ];
}

/**
 * The server's layers, each importing only those below it:
 *   entry points   main.ts, dev.ts and the *-cli.ts commands: run, never imported
 *   start-server   start-server.ts (imported by main.ts and dev.ts): the only importer of app.ts,
 *                  which tests build too; dev-pages.ts (Vite in development) only by dev.ts
 *   app shell      app.ts, pages.ts: compose the feature modules
 *   feature routes <feature>/routes.ts: parse, call a service, reply
 *   features       the rest of each feature module (every folder not named below); they may call
 *                  each other's services (npm run lint's madge --circular keeps those calls free of cycles)
 *   infrastructure db/, http/, mail/, images/, backup/, demo/ (the demo catalogue's data), metrics/,
 *                  notices/ (the live hub: LISTEN/NOTIFY, heard by every process)
 *   foundation     config.ts, project-path.ts, private-files.ts
 * The patterns match import strings: top-level files are reached as ./x.js from src/server's
 * other top-level files and as #server/x.js from its folders.
 */
function serverLayering() {
  const infrastructure = 'backup|db|demo|http|images|mail|metrics|notices';
  // Every other folder is a feature module, so that a new module is under the rules from its first file.
  const features = readdirSync(new URL('src/server/', import.meta.url), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !infrastructure.split('|').includes(entry.name))
    .map((entry) => entry.name)
    .join('|');
  const folders = (names) => `src/server/{${names.replaceAll('|', ',')}}/**/*.ts`;
  const topLevel = (names) => `^(?:\\./|#server/)(?:${names})\\.js$`;
  const noClient = { regex: '^#client/', message: 'The server never imports client code.' };
  const noEntryPoints = { regex: topLevel('main|dev|[a-z-]+-cli'), message: 'Entry points are run, never imported.' };
  const noStartServer = { regex: topLevel('start-server'), message: 'start-server.ts is imported only by the entry points main.ts and dev.ts.' };
  const noApp = { regex: topLevel('app'), message: 'app.ts is built by start-server.ts (and by tests), nowhere else.' };
  const noDevPages = { regex: topLevel('dev-pages'), message: 'dev-pages.ts (Vite) is for dev.ts only.' };
  const noPages = { regex: topLevel('pages'), message: 'pages.ts is part of the app shell, which composes the modules; they never import it.' };
  // ./routes.js or #server/<module>/routes.js; #shared/routes.js (the client's paths) is no server route.
  const noRoutes = { regex: '^(?:\\./|#server/[^/]+/)routes\\.js$', message: 'Routes sit on top of the services: nothing below them imports a routes file.' };
  const noFeatures = {
    regex: `^#server/(?:${features})/`,
    message: `The infrastructure (${infrastructure.replaceAll('|', '/, ')}/) sits below the feature modules and never imports one.`,
  };
  const everyone = [noClient, noEntryPoints, noStartServer, noApp, noDevPages];
  const layer = (files, patterns, ignores = []) => ({ files, ignores, rules: { 'no-restricted-imports': ['error', { patterns }] } });
  return [
    layer(['src/server/**/*.ts'], everyone),
    layer(['src/server/config.ts', 'src/server/project-path.ts'], [...everyone, { regex: '^(?:\\./|#server/)', message: 'config.ts and project-path.ts are the bottom of the server: they import nothing else from it.' }]),
    layer([folders(infrastructure)], [...everyone, noPages, noRoutes, noFeatures]),
    layer([folders(features)], [...everyone, noPages, noRoutes], ['src/server/*/routes.ts']),
    layer(['src/server/*/routes.ts'], [...everyone, noPages]),
    layer(['src/server/start-server.ts'], [noClient, noEntryPoints, noDevPages]),
    layer(['src/server/main.ts'], [noClient, noEntryPoints, noApp, noDevPages]),
    layer(['src/server/dev.ts'], [noClient, noEntryPoints, noApp]),
  ];
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'test-results/', 'playwright-report/', 'src/server/db/migrations/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['src/client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: ['**/*.test.{ts,tsx}'],
    ignores: ['**/*.isolated.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='vi'][callee.property.name=/^(mock|doMock)$/]",
          message: 'Unit test files share their modules (vitest.config.ts): one that replaces modules is named *.isolated.test.ts, which runs with modules of its own.',
        },
      ],
    },
  },
  ...layering,
);
