// Part of `npm run build`: saves an empty, migrated embedded database in dist/, which a new DATA_DIR
// starts from instead of creating one (src/server/db/client.ts, saveEmptyDatabase).
import { saveEmptyDatabase } from '../dist/node/server/db/client.js';

const file = await saveEmptyDatabase();
console.warn(`Empty database for new data folders: ${file}`);
