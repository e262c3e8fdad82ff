import type { Job } from './job.entity';

/**
 * Published when a job has ended (completed or failed), as one of its consequences (SettleJob).
 * It may be published twice for one job (a redelivery): a listener must bear that. A listener
 * that throws leaves the consequences pending, for the sweeper to publish again — so listen with
 * `@OnEvent(JobFinished.event, { suppressErrors: false })`.
 */
export class JobFinished {
  static readonly event = 'job.finished';

  constructor(readonly job: Job) {}
}
