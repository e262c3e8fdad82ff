import { Injectable } from '@nestjs/common';
import type { JobQuote, ToolSlug } from '../../../generated/types';
import { DataSource } from 'typeorm';
import { InjectDataSource } from '@nestjs/typeorm';
import { JobAdmission, admissionCost } from '../job-admission';
import { JobInputs } from '../job-inputs';
import { JobRunTimes } from '../job-run-times';
import { admissionOf, type SubmitJobCommand } from './submit-job';

/**
 * POST /v1/jobs?dryRun=true once the request is valid: the same input checks as a submission
 * (an upload is looked up, nothing fetched), then the admission's own decision read without the
 * account lock (JobAdmission.quote), then the estimate. Writes nothing, and ignores an
 * idempotency key: a quote is not the request the key protects.
 */
@Injectable()
export class QuoteJob {
  constructor(
    private readonly inputs: JobInputs,
    private readonly admission: JobAdmission,
    private readonly runTimes: JobRunTimes,
    @InjectDataSource() private readonly db: DataSource,
  ) {}

  async execute(command: Omit<SubmitJobCommand, 'idempotency'>): Promise<JobQuote> {
    const admission = await admissionOf(this.inputs, command);
    const decision = await this.admission.quote(this.db.manager, admission);
    const steps: JobQuote['quote']['steps'] = {};
    if (command.pipeline) {
      const byName = new Map(command.pipeline.map((s) => [s.name, s]));
      for (const name of command.stepOrder ?? [...byName.keys()]) {
        const step = byName.get(name)!;
        steps[name] = { tool: step.tool.slug as ToolSlug, charge: step.tool.charge(step.options) };
      }
    }
    return {
      quote: {
        charge: decision.refused ? admissionCost(admission) : decision.cost,
        steps,
        affordable: !decision.refused,
        refusal: decision.refused ? { code: decision.code, message: decision.message } : null,
        estimate: { seconds: await this.runTimes.estimate(command.tool.slug, admission.input.size ?? null, command.pipeline) },
      },
    };
  }
}
