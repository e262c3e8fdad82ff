import { Module } from '@nestjs/common';
import { ToolAvailability } from './tool-availability';
import { ToolsController } from './tools.controller';

/** The catalogue, and whether each tool's programs are on this machine (jobs and /readyz ask ToolAvailability). */
@Module({ controllers: [ToolsController], providers: [ToolAvailability], exports: [ToolAvailability] })
export class ToolsModule {}
