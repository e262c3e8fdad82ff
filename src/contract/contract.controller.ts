import { Controller, Get, Header } from '@nestjs/common';
import { Contract } from './contract';

/** Serves the hand-written contract itself; /docs renders the same document. */
@Controller()
export class ContractController {
  constructor(private readonly contract: Contract) {}

  @Get('openapi.yaml')
  @Header('content-type', 'application/yaml; charset=utf-8')
  yaml(): string {
    return this.contract.text;
  }

  @Get('openapi.json')
  json(): unknown {
    return this.contract.document;
  }
}
