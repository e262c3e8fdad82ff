import { Controller, Get, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Operation } from '../contract/operation.decorator';
import { toAccountView } from './accounts.service';

@Controller('v1/account')
export class AccountsController {
  @Get()
  @Operation('getAccount')
  get(@Req() req: FastifyRequest) {
    return { account: toAccountView(req.auth!.account) };
  }
}
