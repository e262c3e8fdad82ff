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

  /** Once per submission: a redelivered job consequence (JobEvents.settle) sends no second event. */
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
