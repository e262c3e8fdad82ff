import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Operation } from '../contract/operation.decorator';
import type { WebhookDelivery } from './webhook-delivery.entity';
import { WebhooksService } from './webhooks.service';

@Controller('v1/webhook-deliveries')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Operation('listWebhookDeliveries')
  async list(
    @Req() req: FastifyRequest,
    @Query('limit') limit = 100,
    @Query('cursor') cursor?: string,
    @Query('status') status?: WebhookDelivery['status'],
  ) {
    const page = await this.webhooks.list(req.auth!.account.id, limit, cursor, status);
    return { deliveries: page.items.map((d) => this.webhooks.toView(d)), nextCursor: page.nextCursor };
  }

  @Post(':id/replay')
  @HttpCode(202)
  @Operation('replayWebhookDelivery')
  async replay(@Req() req: FastifyRequest, @Param('id') id: string) {
    return { delivery: this.webhooks.toView(await this.webhooks.replay(req.auth!.account.id, id)) };
  }
}
