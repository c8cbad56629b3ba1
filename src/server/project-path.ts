import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's own package.json names it; the build's dist/node/package.json only maps its imports. */
const isProjectRoot = (folder: string) => {
  const file = path.join(folder, 'package.json');
  return existsSync(file) && 'name' in JSON.parse(readFileSync(file, 'utf8'));
};

/** The folder holding the project's package.json, whether the server runs from src/ (tests, dev) or from dist/ (build). */
const projectRoot = (() => {
  let folder = path.dirname(fileURLToPath(import.meta.url));
  while (!isProjectRoot(folder)) {
    const parent = path.dirname(folder);
    if (parent === folder) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    folder = parent;
  }
  return folder;
})();

export function projectPath(...segments: string[]): string {
  return path.join(projectRoot, ...segments);
}
