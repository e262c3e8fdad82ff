import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OperationBindingCheck } from './operation-binding';

/** Imported by the HTTP app only: the worker serves no routes. */
@Module({ imports: [DiscoveryModule], providers: [OperationBindingCheck] })
export class OperationBindingModule {}
