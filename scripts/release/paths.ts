import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout the release is built from (this file is dist/scripts/release/paths.js once compiled). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
