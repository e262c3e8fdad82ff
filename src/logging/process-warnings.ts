import type { Logger } from 'pino';

/**
 * Node prints process warnings (a library's deprecation or support notice, such as the AWS SDK's
 * NodeVersionSupportWarning) as plain text on stderr, which breaks the one-JSON-line-per-entry log.
 * They become `warn` lines of the process's logger instead (Node's own printer is removed).
 */
export function logProcessWarnings(root: Logger): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning: Error & { code?: string }) => {
    root.warn({ context: 'Process', warning: { name: warning.name, ...(warning.code ? { code: warning.code } : {}) } }, warning.message);
  });
}
