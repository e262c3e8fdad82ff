import { Injectable } from '@nestjs/common';
import type { Drop } from '../drops/drop.entity';
import { WebhooksService } from '../webhooks/webhooks.service';
import type { Submission } from './submission.entity';
import { toSubmissionView } from './submission-views';

/** What happens after a file has arrived: the drop's webhook (and, later, auto-conversion). */
@Injectable()
export class SubmissionEvents {
  constructor(private readonly webhooks: WebhooksService) {}

  async created(drop: Drop, submission: Submission): Promise<void> {
    if (drop.webhookUrl) {
      await this.webhooks.emit(drop.accountId, drop.webhookUrl, 'submission.created', {
        drop: { slug: drop.slug, name: drop.name },
        submission: toSubmissionView(submission),
      });
    }
  }
}
