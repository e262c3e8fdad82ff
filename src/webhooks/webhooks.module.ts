import { Module } from '@nestjs/common';
import { AccountSlots } from './account-slots';
import { EndpointCircuits } from './endpoint-circuits';
import { WebhookDeliveriesRepository } from './webhook-deliveries.repository';
import { WebhooksController } from './webhooks.controller';
import { WebhooksService } from './webhooks.service';

/** The producer side and the delivery log API; the sender runs in the worker (WorkerModule). */
@Module({
  controllers: [WebhooksController],
  providers: [WebhookDeliveriesRepository, WebhooksService, AccountSlots, EndpointCircuits],
  exports: [WebhookDeliveriesRepository, WebhooksService, AccountSlots, EndpointCircuits],
})
export class WebhooksModule {}
