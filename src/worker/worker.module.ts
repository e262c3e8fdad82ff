import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Account } from '../accounts/account.entity';
import { HttpFetchModule } from '../http-fetch/http-fetch.module';
import { WebhookDelivery } from '../webhooks/webhook-delivery.entity';
import { WebhookSender } from '../webhooks/webhook-sender';
import { WebhooksModule } from '../webhooks/webhooks.module';

/**
 * The queue consumers. `npm run start:worker` runs them alone (as many copies as needed);
 * `npm start` also runs them in the API process unless WORKER_IN_PROCESS=false.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookDelivery, Account]), HttpFetchModule, WebhooksModule],
  providers: [WebhookSender],
})
export class WorkerModule {}
