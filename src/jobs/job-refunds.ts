import { Injectable } from '@nestjs/common';
import { CreditsService } from '../credits/credits.service';
import type { Db } from '../database/sql';
import { JobsRepository } from './jobs.repository';

/**
 * A job's cost comes back once, whoever asks how often (a failure, a cancel, a withdrawn enqueue):
 * `jobs.refunded` flips in the same transaction as the credit, and only the flip's winner credits.
 */
@Injectable()
export class JobRefunds {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly credits: CreditsService,
  ) {}

  async refundOnce(tx: Db, jobId: string): Promise<boolean> {
    const job = await this.jobs.markRefunded(tx, jobId);
    if (!job) return false;
    const { accountId, apiKeyId, cost, pipelineId, stepName } = job;
    await this.credits.refund(tx, { accountId, apiKeyId, cost, jobId: pipelineId ?? jobId, step: stepName });
    return true;
  }
}
