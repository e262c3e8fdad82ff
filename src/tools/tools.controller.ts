import { Controller, Get } from '@nestjs/common';
import { Contract } from '../contract/contract';
import { Operation } from '../contract/operation.decorator';
import type { Ok } from '../contract/operation-types';
import { ToolAvailability } from './tool-availability';
import { TOOLS, toToolView } from './tool-registry';

@Controller('v1/tools')
export class ToolsController {
  private readonly view: ReturnType<typeof toToolView>[];

  constructor(
    contract: Contract,
    private readonly availability: ToolAvailability,
  ) {
    this.view = Object.values(TOOLS).map((t) => toToolView(t, contract.componentSchema(t.optionsSchema)));
  }

  @Get()
  @Operation('listTools')
  async list(): Promise<Ok<'listTools'>> {
    const unavailable = await this.availability.unavailableSlugs();
    return { tools: this.view.map((tool) => ({ ...tool, available: !unavailable.has(tool.slug) })) };
  }
}
