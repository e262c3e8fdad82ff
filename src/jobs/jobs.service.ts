import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { JobCreate, Job as JobView } from '../../generated/types';
import type { AuthContext } from '../auth/auth-context';
import { assertScope } from '../auth/scopes';
import { ApiError } from '../common/api-error';
import { decodeCursor, paginate } from '../common/cursor';
import { limitsOf } from '../config/plans';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { findTool, TOOLS, type ToolDefinition } from '../tools/tool-registry';
import { ToolOptions } from '../tools/tool-options';
import type { Job, JobState } from './job.entity';
import { JobWaits } from './job-waits';
import { signOutputs } from './job-outputs';
import { toJobView } from './job-views';
import { JobsRepository } from './jobs.repository';

/**
 * The jobs API's request checks (docs/decisions.md §7, in its order) and its reads. The commands
 * themselves are use cases (use-cases/submit-job.ts, cancel-job.ts).
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly toolOptions: ToolOptions,
    private readonly waits: JobWaits,
  ) {}

  /** Everything that can be refused without touching the database. */
  validate(auth: AuthContext, body: JobCreate): { tool: ToolDefinition; input: { url?: string; fileId?: string }; options: Record<string, unknown> } {
    const tool = findTool(body.tool);
    if (!tool) {
      throw new ApiError(HttpStatus.BAD_REQUEST, 'unknown_tool', `Unknown tool "${String(body.tool).slice(0, 64)}"; available: ${Object.keys(TOOLS).join(', ')}.`);
    }
    const input = body.input ?? {};
    if (!input.url && !input.fileId) {
      throw new ApiError(HttpStatus.BAD_REQUEST, 'missing_input', 'Give the input file as input.url (http or https) or input.fileId (from POST /v1/uploads).');
    }
    const options = this.toolOptions.check(tool, body.options, 'body/options');
    if (input.url && input.fileId)
      throw ApiError.validation('Give input.url or input.fileId, not both.', [{ path: 'body/input', message: 'must have exactly one of url, fileId' }]);
    if (input.url && !isHttpUrl(input.url)) throw ApiError.validation('input.url must be an http or https URL.', [{ path: 'body/input/url', message: 'must be an http(s) URL' }]);
    assertScope(auth.key.scopes, tool.scope);
    if (body.webhookUrl && !limitsOf(auth.account.plan).jobWebhooks) {
      throw ApiError.forbidden('plan_not_eligible', 'Job webhooks need the Pro or Max plan.');
    }
    return { tool, input: input.url ? { url: input.url } : { fileId: input.fileId }, options };
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
    return { jobs: await Promise.all(page.items.map((j) => this.view(j))), nextCursor: page.nextCursor };
  }

  private async find(auth: AuthContext, id: string): Promise<Job> {
    const job = await this.jobs.findForKey(id, auth.key.id);
    if (!job) throw ApiError.notFound('Job');
    return job;
  }

  /** The API shape of a job, its download URLs signed now. */
  async view(job: Job): Promise<JobView> {
    return toJobView(job, await signOutputs(this.storage, job));
  }
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
