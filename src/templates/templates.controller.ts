import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import type { AuthContext } from '../auth/auth-context';
import { Auth } from '../auth/auth.decorator';
import { Operation } from '../contract/operation.decorator';
import type { Body as RequestBody, Ok, Query as QueryOf } from '../contract/operation-types';
import { TemplatesService } from './templates.service';

/** Saved pipelines. Auth, validation and scopes come from the contract (global guards). */
@Controller('v1/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Post()
  @HttpCode(201)
  @Operation('createTemplate')
  async create(@Auth() auth: AuthContext, @Body() body: RequestBody<'createTemplate'>): Promise<Ok<'createTemplate'>> {
    return { template: this.templates.toView(await this.templates.create(auth.account.id, body)) };
  }

  @Get()
  @Operation('listTemplates')
  async list(@Auth() auth: AuthContext, @Query() query: QueryOf<'listTemplates'>): Promise<Ok<'listTemplates'>> {
    const page = await this.templates.list(auth.account.id, query.limit ?? 100, query.cursor);
    return { templates: page.items.map((t) => this.templates.toView(t)), nextCursor: page.nextCursor };
  }

  @Get(':id')
  @Operation('getTemplate')
  async get(@Auth() auth: AuthContext, @Param('id') id: string): Promise<Ok<'getTemplate'>> {
    return { template: this.templates.toView(await this.templates.get(auth.account.id, id)) };
  }

  @Patch(':id')
  @Operation('updateTemplate')
  async update(@Auth() auth: AuthContext, @Param('id') id: string, @Body() body: RequestBody<'updateTemplate'>): Promise<Ok<'updateTemplate'>> {
    return { template: this.templates.toView(await this.templates.update(auth.account.id, id, body)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @Operation('deleteTemplate')
  async delete(@Auth() auth: AuthContext, @Param('id') id: string): Promise<void> {
    await this.templates.delete(auth.account.id, id);
  }
}
