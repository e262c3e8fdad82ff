import { Controller, Get } from '@nestjs/common';
import { Contract } from '../contract/contract';
import { Operation } from '../contract/operation.decorator';
import type { Ok } from '../contract/operation-types';
import { TOOLS, toToolView } from './tool-registry';

@Controller('v1/tools')
export class ToolsController {
  private readonly view: Ok<'listTools'>;

  constructor(contract: Contract) {
    this.view = { tools: Object.values(TOOLS).map((t) => toToolView(t, contract.componentSchema(t.optionsSchema))) };
  }

  @Get()
  @Operation('listTools')
  list(): Ok<'listTools'> {
    return this.view;
  }
}
