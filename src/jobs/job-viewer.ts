import { Inject, Injectable } from '@nestjs/common';
import type { Job as JobView } from '../../generated/types';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import type { Job } from './job.entity';
import { signOutputs } from './job-outputs';
import { toJobView } from './job-views';
import { PipelinesRepository } from './pipelines.repository';
import { toPipelineView } from './pipeline-views';

/**
 * Jobs as the API shows them, their download URLs signed now. A pipeline job is read with its
 * steps: one query for all the pipelines of a page.
 */
@Injectable()
export class JobViewer {
  constructor(
    private readonly pipelines: PipelinesRepository,
    @Inject(STORAGE) private readonly storage: StorageDriver,
  ) {}

  async view(job: Job): Promise<JobView> {
    return (await this.views([job]))[0];
  }

  async views(jobs: Job[]): Promise<JobView[]> {
    const stepRows = await this.pipelines.findSteps(jobs.filter((j) => j.steps).map((j) => j.id));
    const stepsOf = new Map<string, Job[]>();
    for (const step of stepRows) stepsOf.set(step.pipelineId!, [...(stepsOf.get(step.pipelineId!) ?? []), step]);
    return Promise.all(
      jobs.map(async (job) => {
        if (!job.steps) return toJobView(job, await signOutputs(this.storage, job));
        const steps = stepsOf.get(job.id) ?? [];
        const urls = new Map(await Promise.all(steps.map(async (s) => [s.id, await signOutputs(this.storage, s)] as const)));
        return toPipelineView(job, steps, urls);
      }),
    );
  }
}
