import { checkRunLogs } from './log-lines';

/** The faults project's global teardown: only the log check (its databases are each test's own). */
export default function logTeardown(): void {
  const { files, lines } = checkRunLogs();
  if (files > 0) console.log(`log lines: ${lines} in ${files} files, all JSON of the logging shape`);
}
