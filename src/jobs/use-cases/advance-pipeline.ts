import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock';
import type { Db } from '../../database/sql';
import { Transactions } from '../../database/transactions';
import { JobDispatch } from '../job-dispatch';
import { JobRefunds } from '../job-refunds';
import type { Job } from '../job.entity';
import type { FinishedJob, RankedJob } from '../jobs.repository';
import { isFinal } from '../lifecycle/job-states';
import { failingStep } from '../lifecycle/pipeline-rules';
import { PipelinesRepository } from '../pipelines.repository';

/**
 * What a pipeline step's end means for its pipeline (docs/adr/0006-pipelines.md), top to bottom,
 * under the pipeline row's lock so two steps ending at once take turns: a completed step hands its
 * output to the steps reading it, which are enqueued after the commit; a failed one fails every
 * step that (transitively) reads it and gives back their credits, one ledger line each; when no
 * step is left in flight, the pipeline ends — completed when every step did, otherwise failed with
 * the error of the first step (in the order given) that failed on its own. It is one of the step's
 * consequences (SettleJob), so it may run twice for one step: each write moves only rows still in
 * the state it expects.
 */
@Injectable()
export class AdvancePipeline {
  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly transactions: Transactions,
    private readonly refunds: JobRefunds,
    private readonly dispatch: JobDispatch,
    private readonly clock: Clock,
  ) {}

  /** The pipeline's row when this step's end ended it (its own consequences follow), else undefined. */
  async afterStep(step: Job): Promise<FinishedJob | undefined> {
    const { ready, ended } = await this.transactions.run(async (tx) => {
      const pipeline = await this.pipelines.lock(tx, step.pipelineId!);
      if (!pipeline || isFinal(pipeline.state)) return { ready: [] as RankedJob[], ended: undefined };
      let ready: RankedJob[] = [];
      if (step.state === 'completed' && step.outputKey) {
        ready = await this.pipelines.unblockReaders(tx, pipeline.id, step.stepName!, { storageKey: step.outputKey, fileName: step.result?.outputFileName ?? 'input' });
      } else if (step.state === 'failed') {
        await this.failReaders(tx, pipeline.id, step.stepName!);
      }
      return { ready, ended: await this.endIfDone(tx, pipeline) };
    });
    // A queue that is down leaves the step to the sweeper, which enqueues unblocked steps never queued.
    for (const next of ready) await this.dispatch.enqueueOrLeave(next);
    return ended;
  }

  private async failReaders(tx: Db, pipelineId: string, failed: string): Promise<void> {
    const steps = await this.pipelines.findSteps([pipelineId], tx);
    const doomed = readersOf(failed, steps);
    if (doomed.length === 0) return;
    const moved = await this.pipelines.failSteps(
      tx,
      doomed.map((s) => s.id),
      'upstream_failed',
      `Not run: step "${failed}", whose output it needs, failed.`,
      this.clock.now(),
    );
    for (const s of moved) await this.refunds.refundOnce(tx, s.id);
  }

  private async endIfDone(tx: Db, pipeline: Job): Promise<FinishedJob | undefined> {
    const steps = await this.pipelines.findSteps([pipeline.id], tx);
    if (steps.some((s) => !isFinal(s.state))) return undefined;
    const now = this.clock.now();
    if (steps.every((s) => s.state === 'completed')) return this.pipelines.complete(tx, pipeline.id, now);
    const inOrder = (pipeline.steps ?? []).map((name) => steps.find((s) => s.stepName === name)).filter((s): s is Job => s !== undefined);
    const culprit = failingStep(inOrder) ?? inOrder.find((s) => s.state !== 'completed')!;
    const code = culprit.errorCode ?? 'processing_failed';
    return this.pipelines.fail(tx, pipeline.id, code, `Step "${culprit.stepName}" failed: ${culprit.errorMessage ?? code}`, now);
  }
}

/** The steps that read `name`'s output, directly or through other steps. */
export function readersOf(name: string, steps: readonly Pick<Job, 'stepName' | 'stepInput' | 'id'>[]): Pick<Job, 'stepName' | 'stepInput' | 'id'>[] {
  const found: Pick<Job, 'stepName' | 'stepInput' | 'id'>[] = [];
  const frontier = [name];
  while (frontier.length > 0) {
    const at = frontier.pop()!;
    for (const s of steps) {
      if (s.stepInput === at && !found.includes(s)) {
        found.push(s);
        frontier.push(s.stepName!);
      }
    }
  }
  return found;
}
