import { readFile } from 'node:fs/promises';
import middie from '@fastify/middie';
import { createServer } from 'vite';
import type { PageSource } from './pages.js';
import { projectPath } from './project-path.js';

/** Development only: Vite serves the client's modules with hot reload through the same server as the API. */
export async function viteDevPages(): Promise<PageSource> {
  const vite = await createServer({
    configFile: projectPath('vite.config.ts'),
    server: { middlewareMode: true },
    appType: 'custom',
  });
  return {
    needsInlineScripts: true,
    fixedHtml: false,
    async register(app) {
      await app.register(middie);
      app.use(vite.middlewares);
      app.addHook('onClose', () => vite.close());
    },
    async indexHtml(url) {
      const template = await readFile(projectPath('src/client/index.html'), 'utf8');
      return vite.transformIndexHtml(url, template);
    },
    // Hot reload and a worker that serves cached files do not mix: development has none (see REMOVING_WORKER).
    serviceWorkerScript: async () => null,
  };
}
