import { Injectable } from '@nestjs/common';
import type { Drop } from '../drops/drop.entity';
import { WebhooksService } from '../webhooks/webhooks.service';
import { AutoConvertService } from './auto-convert.service';
import type { Submission } from './submission.entity';
import { toSubmissionView } from './submission-views';

/** What happens after a file has arrived: auto-conversion, then the drop's webhook. */
@Injectable()
export class SubmissionEvents {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly autoConvert: AutoConvertService,
  ) {}

  /** Returns the submission as it stands afterwards (`processing` when a conversion started). */
  async created(drop: Drop, arrived: Submission): Promise<Submission> {
    const submission = await this.autoConvert.schedule(drop, arrived);
    if (drop.webhookUrl) {
      await this.webhooks.emit(drop.accountId, drop.webhookUrl, 'submission.created', {
        drop: { slug: drop.slug, name: drop.name },
        submission: toSubmissionView(submission),
      });
    }
    return submission;
  }
}
