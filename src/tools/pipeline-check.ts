import { Injectable } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import { PipelineError, type PipelineStepSpec, type PlannedStep, planPipeline } from './pipeline-plan';
import { ToolOptions } from './tool-options';
import { findTool } from './tool-registry';

/** A request's steps checked against the listed tools: the plan, or 400 `invalid_pipeline` naming the step. */
@Injectable()
export class PipelineCheck {
  constructor(private readonly toolOptions: ToolOptions) {}

  plan(steps: Record<string, PipelineStepSpec>, path = 'body/steps'): PlannedStep[] {
    try {
      return planPipeline(steps, { find: findTool, options: (tool, options, at) => this.toolOptions.check(tool, options, at.replace(/^body\/steps/, path)) });
    } catch (err) {
      if (!(err instanceof PipelineError)) throw err;
      throw new DomainError('invalid_pipeline', err.message, { details: [{ path: err.path.replace(/^body\/steps/, path), message: err.message }] });
    }
  }
}
