import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { DropCreate, DropUpdate } from '../../generated/types';
import { Operation } from '../contract/operation.decorator';
import { DropsService } from './drops.service';

/** Owner API for drops. Auth, validation and scopes come from the contract (global guards). */
@Controller('v1/drops')
export class DropsController {
  constructor(private readonly drops: DropsService) {}

  @Get()
  @Operation('listDrops')
  async list(@Req() req: FastifyRequest, @Query('limit') limit = 100, @Query('cursor') cursor?: string) {
    const page = await this.drops.list(req.auth!.account.id, limit, cursor);
    return { drops: page.items.map((d) => this.drops.toView(d)), nextCursor: page.nextCursor };
  }

  @Post()
  @HttpCode(201)
  @Operation('createDrop')
  async create(@Req() req: FastifyRequest, @Body() body: DropCreate) {
    return { drop: this.drops.toView(await this.drops.create(req.auth!.account, body)) };
  }

  @Get(':slug')
  @Operation('getDrop')
  async get(@Req() req: FastifyRequest, @Param('slug') slug: string) {
    return { drop: this.drops.toView(await this.drops.get(req.auth!.account.id, slug)) };
  }

  @Patch(':slug')
  @Operation('updateDrop')
  async update(@Req() req: FastifyRequest, @Param('slug') slug: string, @Body() body: DropUpdate) {
    return { drop: this.drops.toView(await this.drops.update(req.auth!.account, slug, body)) };
  }

  @Delete(':slug')
  @HttpCode(204)
  @Operation('deleteDrop')
  async delete(@Req() req: FastifyRequest, @Param('slug') slug: string): Promise<void> {
    await this.drops.delete(req.auth!.account.id, slug);
  }
}
