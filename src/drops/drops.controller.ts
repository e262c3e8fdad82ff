import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Operation } from '../contract/operation.decorator';
import type { Body as RequestBody, Ok, Query as QueryOf } from '../contract/operation-types';
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
  async create(@Auth() auth: AuthContext, @Body() body: RequestBody<'createDrop'>): Promise<Ok<'createDrop'>> {
    return { drop: this.drops.toView(await this.drops.create(auth.account, body, auth.key.scopes)) };
  }

  @Get(':slug')
  @Operation('getDrop')
  async get(@Auth() auth: AuthContext, @Param('slug') slug: string): Promise<Ok<'getDrop'>> {
    return { drop: this.drops.toView(await this.drops.read(auth.account.id, slug)) };
  }

  @Patch(':slug')
  @Operation('updateDrop')
  async update(@Auth() auth: AuthContext, @Param('slug') slug: string, @Body() body: RequestBody<'updateDrop'>): Promise<Ok<'updateDrop'>> {
    return { drop: this.drops.toView(await this.drops.update(auth.account, slug, body, auth.key.scopes)) };
  }

  @Delete(':slug')
  @HttpCode(204)
  @Operation('deleteDrop')
  async delete(@Auth() auth: AuthContext, @Param('slug') slug: string): Promise<void> {
    await this.drops.delete(auth.account.id, slug);
  }
}
