import { Injectable } from '@nestjs/common';
import type { JobCreate, JobRequest, Job as JobView, PipelineJobCreate, TemplateJobCreate } from '../../generated/types';
import type { AuthContext } from '../auth/auth-context';
import { assertScope } from '../auth/scopes';
import { DomainError } from '../common/domain-error';
import { decodeCursor, paginate } from '../common/cursor';
import { limitsOf } from '../config/plans';
import { TemplatesService } from '../templates/templates.service';
import { PipelineCheck } from '../tools/pipeline-check';
import { firstMissingScope, type PipelineStepSpec, type PlannedStep } from '../tools/pipeline-plan';
import { findTool, TOOLS, type ToolDefinition } from '../tools/tool-registry';
import { ToolOptions } from '../tools/tool-options';
import type { Job, JobState } from './job.entity';
import { JobViewer } from './job-viewer';
import { JobWaits } from './job-waits';
import { JobsRepository } from './jobs.repository';

/** A request that may be admitted: the tool (a pipeline's first step's), its input and options, and a pipeline's steps. */
export interface ValidJob {
  tool: ToolDefinition;
  input: { url?: string; fileId?: string };
  options: Record<string, unknown>;
  pipeline?: PlannedStep[];
  stepOrder?: string[];
}

/**
 * The jobs API's request checks (docs/decisions.md §7, in its order) and its reads. The commands
 * themselves are use cases (use-cases/submit-job.ts, cancel-job.ts).
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly toolOptions: ToolOptions,
    private readonly waits: JobWaits,
    private readonly viewer: JobViewer,
    private readonly pipelines: PipelineCheck,
    private readonly templates: TemplatesService,
  ) {}

  /**
   * Everything that can be refused before admission, for each form of the request: one tool
   * (the spec's), named steps, or a template (read here: 404 for another account's).
   */
  async validate(auth: AuthContext, body: JobRequest): Promise<ValidJob> {
    const forms = (['tool', 'steps', 'template'] as const).filter((f) => (body as Record<string, unknown>)[f] !== undefined);
    if (forms.length > 1) {
      throw new DomainError('invalid_pipeline', `Give one of tool, steps or template, not ${forms.join(' and ')}.`, {
        details: [{ path: `body/${forms[1]}`, message: `must not be given with ${forms[0]}` }],
      });
    }
    if (forms[0] === 'steps') return this.validatePipeline(auth, body as PipelineJobCreate, (body as PipelineJobCreate).steps, 'body/steps');
    if (forms[0] === 'template') {
      const template = await this.templates.get(auth.account.id, (body as TemplateJobCreate).template);
      return this.validatePipeline(auth, body as TemplateJobCreate, template.steps, 'body/template/steps');
    }
    if (forms.length === 0) throw DomainError.validation("body: must have required property 'tool'", [{ path: 'body', message: "must have required property 'tool'" }]);
    return this.validateTool(auth, body as JobCreate);
  }

  private validateTool(auth: AuthContext, body: JobCreate): ValidJob {
    const tool = findTool(body.tool);
    if (!tool) {
      throw new DomainError('unknown_tool', `Unknown tool "${String(body.tool).slice(0, 64)}"; available: ${Object.keys(TOOLS).join(', ')}.`);
    }
    requireInput(body.input);
    const options = this.toolOptions.check(tool, body.options, 'body/options');
    const input = checkedInput(body.input!);
    assertScope(auth.key.scopes, tool.scope);
    requireWebhookPlan(auth, body.webhookUrl);
    return { tool, input, options };
  }

  /** Steps of the request or of a template: planned (400 `invalid_pipeline`), then the key's scope for each (403 naming the step). */
  private validatePipeline(auth: AuthContext, body: PipelineJobCreate | TemplateJobCreate, steps: Record<string, PipelineStepSpec>, path: string): ValidJob {
    requireInput(body.input);
    const pipeline = this.pipelines.plan(steps, path);
    const input = checkedInput(body.input!);
    const missing = firstMissingScope(pipeline, auth.key.scopes);
    if (missing) throw new DomainError('insufficient_scope', `Step "${missing.step}" needs the ${missing.scope} scope.`);
    requireWebhookPlan(auth, body.webhookUrl);
    return { tool: findTool(pipeline[0].tool.slug)!, input, options: {}, pipeline, stepOrder: Object.keys(steps) };
  }

  async get(auth: AuthContext, id: string): Promise<JobView> {
    return this.view(await this.find(auth, id));
  }

  /**
   * `Prefer: wait`: the job once it is final, or as it is after `timeoutMs`; 404 like `get`.
   * Undefined when `signal` aborted first (the client hung up).
   */
  async waitFor(auth: AuthContext, id: string, timeoutMs: number, signal: AbortSignal): Promise<JobView | undefined> {
    const job = await this.waits.until(id, () => this.find(auth, id), timeoutMs, signal);
    return job && this.view(job);
  }

  async list(auth: AuthContext, limit: number, cursor?: string, state?: JobState, tool?: string) {
    const page = paginate(await this.jobs.listForKey(auth.key.id, limit + 1, { after: decodeCursor(cursor), state, tool }), limit);
    return { jobs: await this.viewer.views(page.items), nextCursor: page.nextCursor };
  }

  private async find(auth: AuthContext, id: string): Promise<Job> {
    const job = await this.jobs.findForKey(id, auth.key.id);
    if (!job) throw DomainError.notFound('Job');
    return job;
  }

  /** The API shape of a job, its download URLs signed now. */
  view(job: Job): Promise<JobView> {
    return this.viewer.view(job);
  }
}

function requireInput(input: { url?: string; fileId?: string } | undefined): void {
  if (!input?.url && !input?.fileId) {
    throw new DomainError('missing_input', 'Give the input file as input.url (http or https) or input.fileId (from POST /v1/uploads).');
  }
}

function checkedInput(input: { url?: string; fileId?: string }): { url: string } | { fileId: string } {
  if (input.url && input.fileId)
    throw DomainError.validation('Give input.url or input.fileId, not both.', [{ path: 'body/input', message: 'must have exactly one of url, fileId' }]);
  if (input.url && !isHttpUrl(input.url)) throw DomainError.validation('input.url must be an http or https URL.', [{ path: 'body/input/url', message: 'must be an http(s) URL' }]);
  return input.url ? { url: input.url } : { fileId: input.fileId! };
}

function requireWebhookPlan(auth: AuthContext, webhookUrl: string | undefined): void {
  if (webhookUrl && !limitsOf(auth.account.plan).jobWebhooks) throw new DomainError('plan_not_eligible', 'Job webhooks need the Pro or Max plan.');
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
