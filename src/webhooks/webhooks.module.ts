import { Module } from '@nestjs/common';
import { AccountSlots } from './account-slots';
import { EndpointCircuits } from './endpoint-circuits';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The producer side and the delivery log API; the sender runs in the worker (WorkerModule). */
@Module({
  controllers: [WebhooksController],
  providers: [WebhooksService, AccountSlots, EndpointCircuits],
  exports: [WebhooksService, AccountSlots, EndpointCircuits],
})
export class WebhooksModule {}
