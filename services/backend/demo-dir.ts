// Where the demo bundles are when running from the repository (the desktop app passes its own).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const DEFAULT_DEMO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../assets/demo');
