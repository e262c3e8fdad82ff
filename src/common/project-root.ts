import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder holding openapi.yaml, whether we run from src/ (ts) or dist/src/ (js). */
export function projectRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'openapi.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('openapi.yaml not found above ' + __dirname);
    dir = parent;
  }
  return dir;
}
