import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import type { DataSource, Repository } from 'typeorm';
import type { JobAccepted, JobCreate, Job as JobView } from '../../generated/types';
import type { AuthContext } from '../auth/auth-context';
import { assertScope } from '../auth/scope.guard';
import { ApiError } from '../common/api-error';
import { decodeCursor, paginate } from '../common/cursor';
import { limitsOf } from '../config/plans';
import { Contract, toDetails } from '../contract/contract';
import { CreditsService } from '../credits/credits.service';
import { STORAGE, type StorageDriver } from '../storage/storage.driver';
import { findTool, TOOLS, type ToolDefinition } from '../tools/tool-registry';
import { Upload } from '../uploads/upload.entity';
import { Clock } from '../common/clock';
import { IdempotencyService, IdempotentTwinCommitted, type StoredResponse } from './idempotency.service';
import { JobAdmission } from './job-admission';
import { JobQueue } from './job-queue';
import { Job, type JobState } from './job.entity';
import { toJobView } from './job-views';

export const RESULT_URL_SECONDS = 3600;

/** The jobs API's rules (spec 4.2, PRODUCT.md §7), in the order PRODUCT.md gives them. */
@Injectable()
export class JobsService {
  constructor(
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
    @InjectRepository(Upload) private readonly uploads: Repository<Upload>,
    @InjectDataSource() private readonly db: DataSource,
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
    if (input.url && input.fileId) throw ApiError.validation('Give input.url or input.fileId, not both.', [{ path: 'body/input', message: 'must have exactly one of url, fileId' }]);
    if (input.url && !isHttpUrl(input.url)) throw ApiError.validation('input.url must be an http or https URL.', [{ path: 'body/input/url', message: 'must be an http(s) URL' }]);
    const options = this.validOptions(tool, body.options ?? {});
    assertScope(auth.key.scopes, tool.scope);
    if (body.webhookUrl && !limitsOf(auth.account.plan).jobWebhooks) {
      throw ApiError.forbidden('plan_not_eligible', 'Job webhooks need the Pro or Max plan.');
    }
    return { tool, input: input.url ? { url: input.url } : { fileId: input.fileId }, options };
  }

  /** Returns the HTTP status too: an idempotent replay answers with the original one. */
  async create(auth: AuthContext, body: JobCreate, idempotencyHeader?: string): Promise<StoredResponse> {
    const { tool, input, options } = this.validate(auth, body);
    const idempotencyKey = body.idempotencyKey ?? idempotencyHeader;
    const hash = idempotencyKey ? this.idempotency.fingerprint(body as Record<string, unknown>) : '';
    if (idempotencyKey) {
      const replay = await this.idempotency.lookup(auth.key.id, idempotencyKey, hash);
      if (replay) return replay;
    }
    if (input.fileId) await this.checkUpload(auth.account.id, input.fileId);
    try {
      const job = await this.admission.admit({
        accountId: auth.account.id,
        plan: auth.account.plan,
        key: { id: auth.key.id, dailyCap: auth.key.dailyCap, monthlyCap: auth.key.monthlyCap },
        tool,
        input,
        options,
        webhookUrl: body.webhookUrl ?? null,
        inTransaction: idempotencyKey
          ? (tx, job) => this.idempotency.record(tx, auth.key.id, idempotencyKey, hash, { status: 202, body: accepted(job) })
          : undefined,
      }, this.clock.now());
      return { status: 202, body: accepted(job) };
    } catch (err) {
      if (!(err instanceof IdempotentTwinCommitted)) throw err;
      // A concurrent twin with the same key won; answer as its replay.
      return (await this.idempotency.lookup(auth.key.id, idempotencyKey!, hash))!;
    }
  }

  async get(auth: AuthContext, id: string): Promise<JobView> {
    return this.view(await this.find(auth, id));
  }

  async list(auth: AuthContext, limit: number, cursor?: string, state?: JobState, tool?: string) {
    const after = decodeCursor(cursor);
    const qb = this.jobs
      .createQueryBuilder('j')
      .where('j.api_key_id = :keyId', { keyId: auth.key.id })
      .orderBy('j.created_at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .limit(limit + 1);
    if (after) qb.andWhere('(j.created_at, j.id) < (:createdAt, :id)', after);
    if (state) qb.andWhere('j.state = :state', { state });
    if (tool) qb.andWhere('j.tool = :tool', { tool });
    const page = paginate(await qb.getMany(), limit);
    return { jobs: await Promise.all(page.items.map((j) => this.view(j))), nextCursor: page.nextCursor };
  }

  /** Only a queued job can be canceled; the state flip and the refund commit together. */
  async cancel(auth: AuthContext, id: string): Promise<JobView> {
    const job = await this.find(auth, id);
    const canceled = await this.db.transaction(async (tx) => {
      const [rows] = await tx.query(`UPDATE jobs SET state = 'canceled', finished_at = now() WHERE id = $1 AND state = 'queued' RETURNING id`, [job.id]);
      if (rows.length === 0) return false;
      await this.credits.refund(job.id, tx);
      return true;
    });
    if (!canceled) {
      const current = await this.find(auth, id);
      throw ApiError.conflict('cannot_cancel', `The job is ${current.state}; only a queued job can be canceled.`);
    }
    await this.queue.remove(job.queue, job.id);
    return this.view(await this.find(auth, id));
  }

  private async find(auth: AuthContext, id: string): Promise<Job> {
    const job = await this.jobs.findOneBy({ id, apiKeyId: auth.key.id });
    if (!job) throw ApiError.notFound('Job');
    return job;
  }

  private async view(job: Job): Promise<JobView> {
    const url = job.state === 'completed' && job.outputKey && job.result
      ? await this.storage.signedUrl(job.outputKey, { fileName: job.result.outputFileName, expiresIn: RESULT_URL_SECONDS })
      : undefined;
    return toJobView(job, url);
  }

  private validOptions(tool: ToolDefinition, options: Record<string, unknown>): Record<string, unknown> {
    const validate = this.contract.schemaValidator(tool.optionsSchema);
    if (!validate(options)) {
      const details = toDetails('body/options', validate.errors);
      throw ApiError.validation(`${details[0].path}: ${details[0].message}`, details);
    }
    const extra = tool.extraCheck?.(options);
    if (extra) throw ApiError.validation(`${extra.path}: ${extra.message}`, [extra]);
    // Unknown keys are ignored: only the schema's own properties are kept.
    const known = Object.keys(this.contract.componentSchema(tool.optionsSchema).properties ?? {});
    return Object.fromEntries(Object.entries(options).filter(([k]) => known.includes(k)));
  }

  private async checkUpload(accountId: string, fileId: string): Promise<void> {
    const upload = await this.uploads.findOneBy({ id: fileId, accountId });
    if (!upload || upload.expiresAt.getTime() <= Date.now()) {
      throw ApiError.validation('input.fileId does not name a current upload of this account (uploads are kept 24 h).', [
        { path: 'body/input/fileId', message: 'no such upload' },
      ]);
    }
  }
}

function accepted(job: Job): JobAccepted {
  return { id: job.id, state: 'queued', statusUrl: `/v1/jobs/${job.id}` };
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
