import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Operation } from '../contract/operation.decorator';
import type { Ok, Query as QueryOf } from '../contract/operation-types';
import { WebhooksService } from './webhooks.service';

@Controller('v1/webhook-deliveries')
export class WebhooksController {
  constructor(private readonly webhooks: WebhooksService) {}

  @Get()
  @Operation('listWebhookDeliveries')
  async list(@Auth() auth: AuthContext, @Query() query: QueryOf<'listWebhookDeliveries'>): Promise<Ok<'listWebhookDeliveries'>> {
    const page = await this.webhooks.list(auth.account.id, query.limit ?? 100, query.cursor, query.status);
    return { deliveries: await this.webhooks.views(auth.account.id, page.items), nextCursor: page.nextCursor };
  }

  @Post(':id/replay')
  @HttpCode(202)
  @Operation('replayWebhookDelivery')
  async replay(@Auth() auth: AuthContext, @Param('id') id: string): Promise<Ok<'replayWebhookDelivery'>> {
    const [delivery] = await this.webhooks.views(auth.account.id, [await this.webhooks.replay(auth.account.id, id)]);
    return { delivery };
  }
}
