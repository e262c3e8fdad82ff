import { existsSync } from 'node:fs';

/**
 * Reads `.env` of the working directory into the environment when there is one (npm start, the
 * worker and the admin CLI run from the repository). A variable already set wins:
 * process.loadEnvFile never overrides, so a deployment's environment is never changed by a stray file.
 */
export function readEnvFile(path = '.env'): void {
  if (existsSync(path)) process.loadEnvFile(path);
}
