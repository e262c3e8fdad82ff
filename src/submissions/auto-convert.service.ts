import { Injectable, Logger } from '@nestjs/common';
import { DomainError } from '../common/domain-error';
import type { Db } from '../database/sql';
import { stepRefusingKind } from '../drops/drop-rules';
import type { Drop } from '../drops/drop.entity';
import { type Admission, JobAdmission } from '../jobs/job-admission';
import type { Job } from '../jobs/job.entity';
import { TemplatesService } from '../templates/templates.service';
import { PipelineCheck } from '../tools/pipeline-check';
import type { PlannedStep } from '../tools/pipeline-plan';
import type { ToolDefinition } from '../tools/tool-registry';
import { planConversion } from './conversion-plan';
import type { ProcessingError, Submission } from './submission.entity';
import { article } from '../common/words';

type ArrivingFile = Pick<Submission, 'id' | 'fileKind' | 'fileMime' | 'storageKey' | 'fileName'>;

/**
 * Admits a drop's automatic processing of an arriving file — its conversion (`autoConvertTo`,
 * `autoCompress`: one step) or its template (`processWith`: a pipeline job of the template's steps)
 * — on the same tools and queues as the jobs API, charged to the drop owner, inside the intake's
 * transaction. When it cannot run (no credits; for a template, also a step that does not take
 * this kind of file, or steps that no longer run) nothing is admitted: the file is kept as it is,
 * the submission is `ready` and shows the reason.
 */
@Injectable()
export class AutoConvertService {
  private readonly logger = new Logger(AutoConvertService.name);

  constructor(
    private readonly admission: JobAdmission,
    private readonly templates: TemplatesService,
    private readonly pipelines: PipelineCheck,
  ) {}

  /**
   * The admitted job; none when the drop processes nothing, or — it cannot run — the reason, which
   * the submission shows as its `processingError`.
   */
  async admitIn(tx: Db, drop: Drop, file: ArrivingFile): Promise<{ job?: Job; refusal?: ProcessingError }> {
    if (drop.processWith) return this.admitTemplate(tx, drop, file, drop.processWith);
    const plan = planConversion(drop, file.fileKind, file.fileMime);
    if (!plan) return {};
    return this.admit(tx, file, 'Not converted', {
      accountId: drop.accountId,
      key: null,
      tool: plan.tool,
      input: { storageKey: file.storageKey, fileName: file.fileName },
      options: plan.options,
      submissionId: file.id,
      waitForSlot: true,
    });
  }

  /** The template's steps as they are now, planned as a job's; one reading the arriving file must take its kind. */
  private async admitTemplate(tx: Db, drop: Drop, file: ArrivingFile, templateId: string): Promise<{ job?: Job; refusal?: ProcessingError }> {
    const planned = await this.plan(drop.accountId, templateId);
    if ('refusal' in planned) return this.keptAsSent(file, planned.refusal);
    const refusing = stepRefusingKind(planned.steps, file.fileKind);
    if (refusing) {
      return this.keptAsSent(file, {
        code: 'unsupported_input',
        message: `Not processed: the template's step "${refusing.name}" (${refusing.tool.slug}) takes ${refusing.tool.kind} files; this file is ${article(file.fileKind)} ${file.fileKind} file. The file is kept as sent.`,
      });
    }
    const [first] = planned.steps;
    return this.admit(tx, file, 'Not processed', {
      accountId: drop.accountId,
      key: null,
      // A registered tool: planPipeline found it in the registry.
      tool: first.tool as ToolDefinition,
      pipeline: planned.steps,
      stepOrder: planned.order,
      input: { storageKey: file.storageKey, fileName: file.fileName },
      options: first.options,
      submissionId: file.id,
      waitForSlot: true,
    });
  }

  /** The plan (the order a step reads after the one it reads) and the steps' order as the template names them. */
  private async plan(accountId: string, templateId: string): Promise<{ steps: PlannedStep[]; order: string[] } | { refusal: ProcessingError }> {
    try {
      const template = await this.templates.get(accountId, templateId);
      return { steps: this.pipelines.plan(template.steps), order: Object.keys(template.steps) };
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // Deleted between the drop's read and now (its deletion clears processWith), or steps a tool no longer takes.
      const refusal =
        err.code === 'not_found'
          ? { code: 'not_found', message: `Not processed: the template ${templateId} was deleted. The file is kept as sent.` }
          : { code: 'invalid_pipeline', message: `Not processed: the template's steps no longer run (${err.message}). The file is kept as sent.` };
      return { refusal };
    }
  }

  private async admit(tx: Db, file: ArrivingFile, not: string, admission: Admission): Promise<{ job?: Job; refusal?: ProcessingError }> {
    const result = await this.admission.admitIn(tx, admission);
    if (result.outcome === 'admitted') return { job: result.job };
    const { refusal } = result;
    const message =
      refusal.code === 'insufficient_credits'
        ? `${not}: the drop owner's credits are used up (${refusal.message}). The file is kept as sent.`
        : `${not}: ${refusal.message} The file is kept as sent.`;
    return this.keptAsSent(file, { code: refusal.code, message });
  }

  private keptAsSent(file: ArrivingFile, refusal: ProcessingError): { refusal: ProcessingError } {
    this.logger.warn(`Submission ${file.id} kept unprocessed: ${refusal.message}`);
    return { refusal };
  }
}
