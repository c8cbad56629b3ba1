import { builtPages } from './pages.js';
import { projectPath } from './project-path.js';
import { startServer } from './start-server.js';

await startServer(async () => builtPages(projectPath('dist/client')));
