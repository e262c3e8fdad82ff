import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { JobAccepted, JobCreate, Job as JobView } from '../../generated/types';
import type { AuthContext } from '../auth/auth-context';
import type { Account } from '../accounts/account.entity';
import { assertScope } from '../auth/scope.guard';
import { ApiError } from '../common/api-error';
import { Clock } from '../common/clock';
import { decodeCursor, paginate } from '../common/cursor';
import { limitsOf, MB } from '../config/plans';
import { Contract, toDetails } from '../contract/contract';
import { CreditsService } from '../credits/credits.service';
import { Transactions } from '../database/transactions';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { findTool, TOOLS, type ToolDefinition } from '../tools/tool-registry';
import { planFileTooLarge, UploadsService } from '../uploads/uploads.service';
import { IdempotencyService, type StoredResponse } from './idempotency.service';
import { JobAdmission } from './job-admission';
import { ENQUEUE_TIMEOUT_MS, JobQueue } from './job-queue';
import type { Job, JobInput, JobState } from './job.entity';
import { toJobView } from './job-views';
import { recordJobFinished } from '../metrics/dropline-metrics';
import { JobsRepository } from './jobs.repository';

export const RESULT_URL_SECONDS = 3600;

/** The jobs API's rules (docs/decisions.md §7), in the order docs/decisions.md gives them. */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly uploads: UploadsService,
    private readonly transactions: Transactions,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly contract: Contract,
    private readonly admission: JobAdmission,
    private readonly credits: CreditsService,
    private readonly queue: JobQueue,
    private readonly idempotency: IdempotencyService,
    private readonly clock: Clock,
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
    this.validBody(tool, body);
    if (input.url && input.fileId)
      throw ApiError.validation('Give input.url or input.fileId, not both.', [{ path: 'body/input', message: 'must have exactly one of url, fileId' }]);
    if (input.url && !isHttpUrl(input.url)) throw ApiError.validation('input.url must be an http or https URL.', [{ path: 'body/input/url', message: 'must be an http(s) URL' }]);
    const options = this.knownOptions(tool, body.options ?? {});
    assertScope(auth.key.scopes, tool.scope);
    if (body.webhookUrl && !limitsOf(auth.account.plan).jobWebhooks) {
      throw ApiError.forbidden('plan_not_eligible', 'Job webhooks need the Pro or Max plan.');
    }
    return { tool, input: input.url ? { url: input.url } : { fileId: input.fileId }, options };
  }

  /**
   * POST /v1/jobs, top to bottom: validate; replay a recorded answer for the idempotency key;
   * resolve an uploaded input; admit (one transaction: checks, key record, debit, row); enqueue.
   * Returns the HTTP status too: an idempotent replay answers with the original one.
   */
  async create(auth: AuthContext, body: JobCreate, idempotencyHeader?: string): Promise<StoredResponse> {
    const { tool, input, options } = this.validate(auth, body);
    const idempotency = this.idempotency.request(body, idempotencyHeader);
    // A twin's answer holds only once its job is queued: if the twin's enqueue failed, its job was
    // withdrawn and the key freed, so this request is admitted on its own (one more round).
    for (let round = 0; ; round++) {
      if (idempotency) {
        const replay = await this.idempotency.replay(auth.key.id, idempotency, this.clock.now());
        if (replay && (await this.twinHeld(replay))) return replay;
      }
      const result = await this.admission.admit({
        accountId: auth.account.id,
        key: { id: auth.key.id, dailyCap: auth.key.dailyCap, monthlyCap: auth.key.monthlyCap },
        tool,
        input: input.fileId ? await this.uploadedInput(auth.account, input.fileId, tool) : input,
        options,
        webhookUrl: body.webhookUrl ?? null,
        idempotency,
      });
      switch (result.outcome) {
        case 'refused':
          throw result.error;
        case 'replay': // a concurrent twin with the same key was admitted first
          if (await this.twinHeld(result.response)) return result.response;
          if (round > 0) throw enqueueFailed();
          continue;
        case 'admitted':
          return { status: 202, body: accepted(result.job) };
      }
    }
  }

  /**
   * Whether a twin's recorded answer names a job that still exists, once the twin's enqueue has
   * settled (queued, or withdrawn after `enqueue_failed`); bounded by the enqueue's own timeout.
   */
  private async twinHeld(response: StoredResponse): Promise<boolean> {
    const id = (response.body as { id?: unknown }).id;
    if (typeof id !== 'string') return true;
    const deadline = Date.now() + ENQUEUE_TIMEOUT_MS + 2000;
    for (;;) {
      const job = await this.jobs.findById(id);
      if (!job) return false;
      if (job.enqueuedAt || job.state !== 'queued' || Date.now() > deadline) return true;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async get(auth: AuthContext, id: string): Promise<JobView> {
    return this.view(await this.find(auth, id));
  }

  async list(auth: AuthContext, limit: number, cursor?: string, state?: JobState, tool?: string) {
    const page = paginate(await this.jobs.listForKey(auth.key.id, limit + 1, { after: decodeCursor(cursor), state, tool }), limit);
    return { jobs: await Promise.all(page.items.map((j) => this.view(j))), nextCursor: page.nextCursor };
  }

  /** Only a queued job can be canceled; the state flip and the refund commit together. */
  async cancel(auth: AuthContext, id: string): Promise<JobView> {
    const job = await this.find(auth, id);
    const canceled = await this.transactions.run(async (tx) => {
      const row = await this.jobs.cancelQueued(tx, job.id, this.clock.now());
      if (row) await this.credits.refund(job.id, tx);
      return row;
    });
    if (!canceled) {
      const current = await this.find(auth, id);
      throw ApiError.conflict('cannot_cancel', `The job is ${current.state}; only a queued job can be canceled.`);
    }
    recordJobFinished(canceled);
    await this.queue.remove(job.queue, job.id);
    // The freed slot goes to a waiting auto-conversion; if this fails, the sweeper hands it out.
    await this.admission.promoteWaiting(job.accountId).catch(() => undefined);
    return this.view({ ...canceled, refunded: true });
  }

  private async find(auth: AuthContext, id: string): Promise<Job> {
    const job = await this.jobs.findForKey(id, auth.key.id);
    if (!job) throw ApiError.notFound('Job');
    return job;
  }

  private async view(job: Job): Promise<JobView> {
    const url =
      job.state === 'completed' && job.outputKey && job.result && !job.outputExpiredAt
        ? await this.storage.signedUrl(job.outputKey, { fileName: job.result.outputFileName, expiresIn: RESULT_URL_SECONDS })
        : undefined;
    return toJobView(job, url);
  }

  /** The whole body against the tool's own JobCreate variant (its options schema included). */
  private validBody(tool: ToolDefinition, body: JobCreate): void {
    const validate = this.contract.variantValidator('JobCreate', tool.slug)!;
    if (!validate(body)) {
      const details = toDetails('body', validate.errors);
      throw ApiError.validation(`${details[0].path}: ${details[0].message}`, details);
    }
  }

  private knownOptions(tool: ToolDefinition, options: Record<string, unknown>): Record<string, unknown> {
    const extra = tool.extraCheck?.(options);
    if (extra) throw ApiError.validation(`${extra.path}: ${extra.message}`, [extra]);
    // Unknown keys are ignored: only the schema's own properties are kept.
    const schema = this.contract.componentSchema(tool.optionsSchema);
    const known = [schema, ...(schema.anyOf ?? [])].flatMap((branch: { properties?: object }) => Object.keys(branch.properties ?? {}));
    return Object.fromEntries(Object.entries(options).filter(([k]) => known.includes(k)));
  }

  /** The worker reads the upload's stored object directly: its key and name go into the job's input. */
  private async uploadedInput(account: Account, fileId: string, tool: ToolDefinition): Promise<JobInput> {
    const upload = await this.uploads.findCurrent(account.id, fileId);
    if (!upload) {
      throw ApiError.validation('input.fileId does not name a current upload of this account (uploads are kept 24 h).', [{ path: 'body/input/fileId', message: 'no such upload' }]);
    }
    // The upload's kind was sniffed when it arrived: a mismatch is known now, not when a worker fails.
    if (upload.fileKind !== tool.kind) {
      throw new ApiError(
        HttpStatus.BAD_REQUEST,
        'unsupported_input',
        `${tool.slug} takes ${article(tool.kind)} ${tool.kind} file; upload ${upload.id} is ${article(upload.fileKind)} ${upload.fileKind} file (${upload.fileMime}).`,
      );
    }
    // A job's input obeys the plan's upload limit however the file arrived (the plan may have changed since).
    if (upload.fileSize > limitsOf(account.plan).maxFileSizeMB * MB) throw planFileTooLarge(account);
    return { fileId, storageKey: upload.storageKey, fileName: upload.fileName };
  }
}

function enqueueFailed(): ApiError {
  return new ApiError(HttpStatus.INTERNAL_SERVER_ERROR, 'enqueue_failed', 'The job could not be queued; no credits were charged. Retry later.');
}

function accepted(job: Job): JobAccepted {
  return { id: job.id, state: 'queued', statusUrl: `/v1/jobs/${job.id}` };
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
