import { Module } from '@nestjs/common';
import { PipelineCheck } from './pipeline-check';
import { ToolAvailability } from './tool-availability';
import { ToolOptions } from './tool-options';
import { ToolsController } from './tools.controller';

/**
 * The catalogue, whether each tool's programs are on this machine (jobs and /readyz ask
 * ToolAvailability), and the checks of a tool's options and of a pipeline's steps, which jobs,
 * templates and a drop's processing share.
 */
@Module({
  controllers: [ToolsController],
  providers: [ToolAvailability, ToolOptions, PipelineCheck],
  exports: [ToolAvailability, ToolOptions, PipelineCheck],
})
export class ToolsModule {}
