import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { projectPath } from '#server/project-path.js';

// package.json's "imports" are what Node, tsx, TypeScript, Vite and Playwright resolve; madge reads only
// tsconfig.base.json's "paths", so the two must name the same folders or the cycle check goes blind.
it('names the same folders in package.json imports and in the paths madge reads', () => {
  const { imports } = JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { imports: Record<string, string> };
  const tsconfig = ts.parseConfigFileTextToJson('tsconfig.base.json', readFileSync(projectPath('tsconfig.base.json'), 'utf8'));
  const paths = (tsconfig.config as { compilerOptions: { paths: Record<string, string[]> } }).compilerOptions.paths;
  expect(paths).toEqual(Object.fromEntries(Object.entries(imports).map(([name, target]) => [name, [target]])));
});
