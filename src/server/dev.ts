import { viteDevPages } from './dev-pages.js';
import { startServer } from './start-server.js';

await startServer(viteDevPages);
