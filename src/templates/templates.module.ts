import { Module } from '@nestjs/common';
import { PipelineCheck } from '../tools/pipeline-check';
import { ToolOptions } from '../tools/tool-options';
import { TemplatesController } from './templates.controller';
import { TemplatesRepository } from './templates.repository';
import { TemplatesService } from './templates.service';

@Module({
  controllers: [TemplatesController],
  providers: [TemplatesRepository, TemplatesService, PipelineCheck, ToolOptions],
  exports: [TemplatesService],
})
export class TemplatesModule {}
