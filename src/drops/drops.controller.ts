import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Operation } from '../contract/operation.decorator';
import type { Body as RequestBody, Ok, Query as QueryOf } from '../contract/operation-types';
import type { DropEvent as DropEventView } from '../../generated/types';
import { type DropEvent, type DropEventActor, requestActor } from './drop-events.repository';
import { DropsService } from './drops.service';

/** Owner API for drops. Auth, validation and scopes come from the contract (global guards). */
@Controller('v1/drops')
export class DropsController {
  constructor(private readonly drops: DropsService) {}

  @Get()
  @Operation('listDrops')
  async list(@Auth() auth: AuthContext, @Query() query: QueryOf<'listDrops'>): Promise<Ok<'listDrops'>> {
    const page = await this.drops.list(auth.account.id, query.limit ?? 100, query.cursor);
    return { drops: page.items.map((d) => this.drops.toView(d)), nextCursor: page.nextCursor };
  }

  @Post()
  @HttpCode(201)
  @Operation('createDrop')
  async create(@Auth() auth: AuthContext, @Body() body: RequestBody<'createDrop'>, @Req() req: FastifyRequest): Promise<Ok<'createDrop'>> {
    return { drop: this.drops.toView(await this.drops.create(auth.account, body, auth.key.scopes, keyActor(req, auth))) };
  }

  @Get(':slug')
  @Operation('getDrop')
  async get(@Auth() auth: AuthContext, @Param('slug') slug: string): Promise<Ok<'getDrop'>> {
    return { drop: this.drops.toView(await this.drops.read(auth.account.id, slug)) };
  }

  @Patch(':slug')
  @Operation('updateDrop')
  async update(@Auth() auth: AuthContext, @Param('slug') slug: string, @Body() body: RequestBody<'updateDrop'>, @Req() req: FastifyRequest): Promise<Ok<'updateDrop'>> {
    return { drop: this.drops.toView(await this.drops.update(auth.account, slug, body, auth.key.scopes, keyActor(req, auth))) };
  }

  @Get(':slug/events')
  @Operation('listDropEvents')
  async events(@Auth() auth: AuthContext, @Param('slug') slug: string, @Query() query: QueryOf<'listDropEvents'>): Promise<Ok<'listDropEvents'>> {
    const drop = await this.drops.get(auth.account.id, slug);
    const filters = { type: query.type, since: query.since ? new Date(query.since) : undefined, until: query.until ? new Date(query.until) : undefined };
    const page = await this.drops.listEvents(drop, query.limit ?? 100, query.cursor, filters);
    return { events: page.items.map(toDropEventView), nextCursor: page.nextCursor };
  }

  @Delete(':slug')
  @HttpCode(204)
  @Operation('deleteDrop')
  async delete(@Auth() auth: AuthContext, @Param('slug') slug: string): Promise<void> {
    await this.drops.delete(auth.account.id, slug);
  }
}

/** The calling key as an audit-log actor. */
export function keyActor(req: FastifyRequest, auth: AuthContext): DropEventActor {
  return requestActor(req.ip, req.headers['user-agent'], auth.key.id);
}

function toDropEventView(e: DropEvent): DropEventView {
  const { keyId, ...actor } = e.actor;
  return {
    id: e.id,
    type: e.type,
    at: e.createdAt.toISOString(),
    actor: keyId ? { ...actor, keyId } : actor,
    ...(e.submissionId ? { submissionId: e.submissionId } : {}),
    detail: e.detail,
  };
}
