import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { ApiError } from '../common/api-error';
import type { Drop } from '../drops/drop.entity';
import { JobAdmission } from '../jobs/job-admission';
import { planConversion } from './conversion-plan';
import { Submission } from './submission.entity';

/**
 * Starts a drop's automatic conversion of an arriving file as a job on the same tools and
 * queues as the jobs API, charged to the drop owner. Without credits the file is kept as it is
 * and the submission stays `ready` with no processed file.
 */
@Injectable()
export class AutoConvertService {
  private readonly logger = new Logger(AutoConvertService.name);

  constructor(
    @InjectRepository(Submission) private readonly submissions: Repository<Submission>,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    private readonly admission: JobAdmission,
  ) {}

  /** Returns the submission as it now stands (`processing` when a job was accepted). */
  async schedule(drop: Drop, submission: Submission): Promise<Submission> {
    const plan = planConversion(drop, submission.fileKind, submission.fileMime);
    if (!plan) return submission;
    const owner = await this.accounts.findOneByOrFail({ id: drop.accountId });
    await this.submissions.update({ id: submission.id }, { status: 'processing' });
    try {
      await this.admission.admit({
        accountId: owner.id,
        plan: owner.plan,
        key: null,
        tool: plan.tool,
        input: {},
        options: plan.options,
        submissionId: submission.id,
        skipConcurrencyLimit: true,
      });
      return { ...submission, status: 'processing' };
    } catch (err) {
      await this.submissions.update({ id: submission.id }, { status: 'ready' });
      if (!(err instanceof ApiError)) throw err;
      this.logger.warn(`Submission ${submission.id} kept unconverted: ${err.message}`);
      return submission;
    }
  }
}
