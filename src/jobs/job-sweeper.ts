/** The reconcile use case under the name the e2e tests know it by. */
export { CONSEQUENCES_GRACE_MS, ReconcileJobs as JobSweeper } from './use-cases/reconcile-jobs';
