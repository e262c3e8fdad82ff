import { Injectable, Logger } from '@nestjs/common';
import type { Db } from '../database/sql';
import type { Drop } from '../drops/drop.entity';
import { JobAdmission } from '../jobs/job-admission';
import type { Job } from '../jobs/job.entity';
import { planConversion } from './conversion-plan';
import type { ProcessingError, Submission } from './submission.entity';

/**
 * Admits a drop's automatic conversion of an arriving file as a job on the same tools and
 * queues as the jobs API, charged to the drop owner, inside the intake's transaction. Without
 * credits nothing is admitted: the file is kept as it is and the submission is `ready`.
 */
@Injectable()
export class AutoConvertService {
  private readonly logger = new Logger(AutoConvertService.name);

  constructor(private readonly admission: JobAdmission) {}

  /**
   * The admitted conversion job; none when the drop converts nothing, or — the owner cannot pay —
   * the reason, which the submission shows as its `processingError`.
   */
  async admitIn(tx: Db, drop: Drop, file: Pick<Submission, 'id' | 'fileKind' | 'fileMime' | 'storageKey' | 'fileName'>): Promise<{ job?: Job; refusal?: ProcessingError }> {
    const plan = planConversion(drop, file.fileKind, file.fileMime);
    if (!plan) return {};
    const result = await this.admission.admitIn(tx, {
      accountId: drop.accountId,
      key: null,
      tool: plan.tool,
      input: { storageKey: file.storageKey, fileName: file.fileName },
      options: plan.options,
      submissionId: file.id,
      waitForSlot: true,
    });
    if (result.outcome === 'admitted') return { job: result.job };
    const { refusal } = result;
    this.logger.warn(`Submission ${file.id} kept unconverted: ${refusal.message}`);
    const message =
      refusal.code === 'insufficient_credits'
        ? `Not converted: the drop owner's credits are used up (${refusal.message}). The file is kept as sent.`
        : `Not converted: ${refusal.message} The file is kept as sent.`;
    return { refusal: { code: refusal.code, message } };
  }
}
