import { Global, Module } from '@nestjs/common';
import { Contract } from './contract';
import { ContractController } from './contract.controller';

@Global()
@Module({
  providers: [{ provide: Contract, useFactory: () => new Contract() }],
  controllers: [ContractController],
  exports: [Contract],
})
export class ContractModule {}
