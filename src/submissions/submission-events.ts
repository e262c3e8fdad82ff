import { Injectable } from '@nestjs/common';
import type { Drop } from '../drops/drop.entity';
import { WebhooksService } from '../webhooks/webhooks.service';
import type { Submission } from './submission.entity';
import { toSubmissionView } from './submission-views';

/** The drop's webhook events about its submissions. */
@Injectable()
export class SubmissionEvents {
  constructor(private readonly webhooks: WebhooksService) {}

  async created(drop: Drop, submission: Submission): Promise<void> {
    if (!drop.webhookUrl) return;
    await this.webhooks.emit(drop.accountId, drop.webhookUrl, 'submission.created', {
      drop: { slug: drop.slug, name: drop.name },
      submission: toSubmissionView(submission),
    });
  }

  /** The malware scan ended (clean, infected or failed); malware is also `submission.quarantined`. Each once per submission. */
  async scanned(drop: Drop, submission: Submission): Promise<void> {
    if (!drop.webhookUrl) return;
    const data = { drop: { slug: drop.slug, name: drop.name }, submission: toSubmissionView(submission) };
    await this.webhooks.emit(drop.accountId, drop.webhookUrl, 'submission.scanned', data, `submission.scanned:${submission.id}`);
    if (submission.scanStatus === 'infected') {
      await this.webhooks.emit(drop.accountId, drop.webhookUrl, 'submission.quarantined', data, `submission.quarantined:${submission.id}`);
    }
  }

  /** Once per submission: a redelivered job consequence (SettleJob.settle) sends no second event. */
  async processed(drop: Drop, submission: Submission): Promise<void> {
    if (!drop.webhookUrl) return;
    await this.webhooks.emit(
      drop.accountId,
      drop.webhookUrl,
      'submission.processed',
      { drop: { slug: drop.slug, name: drop.name }, submission: toSubmissionView(submission) },
      `submission.processed:${submission.id}`,
    );
  }
}
