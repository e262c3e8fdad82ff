import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Job as BullJob } from 'bullmq';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Repository } from 'typeorm';
import { Account } from '../accounts/account.entity';
import { sanitizeFileName } from '../common/file-sniffer';
import { newId } from '../common/ids';
import { limitsOf, MB } from '../config/plans';
import { CreditsService } from '../credits/credits.service';
import { FetchError } from '../http-fetch/fetch-error';
import { GuardedHttpClient } from '../http-fetch/guarded-fetch';
import { MediaError } from '../media/media.errors';
import { ObjectNotFoundError, STORAGE, type StorageDriver } from '../storage/storage.driver';
import { Upload } from '../uploads/upload.entity';
import { JobEvents } from './job-events';
import type { MediaJobData } from './job-queue';
import { Job } from './job.entity';
import { ToolRunner } from './tool-runner';

const FETCH_TIMEOUT_MS = 120_000;
/** A permanent failure: the job fails now with this code instead of being retried. */
class JobFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/**
 * Runs one media job in a worker: fetch the input to a temp dir, run the tool, store the
 * output, record the result. Permanent errors (not media, too large, blocked URL) fail the job
 * at once and refund it; transient ones (network, storage, a killed worker) go back to BullMQ,
 * which retries with backoff, and the last attempt fails and refunds.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger(JobRunner.name);

  constructor(
    @InjectRepository(Job) private readonly jobs: Repository<Job>,
    @InjectRepository(Upload) private readonly uploads: Repository<Upload>,
    @InjectRepository(Account) private readonly accounts: Repository<Account>,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly http: GuardedHttpClient,
    private readonly tools: ToolRunner,
    private readonly credits: CreditsService,
    private readonly events: JobEvents,
  ) {}

  async process(bullJob: BullJob<MediaJobData>): Promise<void> {
    const [started] = await this.jobs.query(
      `UPDATE jobs SET state = 'running', started_at = COALESCE(started_at, now()), progress = 0
       WHERE id = $1 AND state IN ('queued', 'running') RETURNING id`,
      [bullJob.data.jobId],
    );
    if (started.length === 0) return; // canceled, finished, or withdrawn before it ran
    const job = await this.jobs.findOneByOrFail({ id: bullJob.data.jobId });
    const dir = await mkdtemp(join(tmpdir(), `dropline-${job.id}-`));
    try {
      const { path: inputPath, name } = await this.fetchInput(job, dir);
      const progress = this.progressReporter(job.id);
      const { output, message } = await this.tools.run(job.tool, inputPath, join(dir, 'out'), job.options, progress);
      const outputKey = newId('obj');
      await this.storage.putFile(outputKey, output.path);
      const outputFileName = `${name.replace(/\.[^.]*$/, '') || 'output'}.${extensionOf(output.format)}`;
      // Only a job still running completes: one failed (and refunded) or re-run meanwhile keeps its state.
      const completed = await this.jobs.update({ id: job.id, state: 'running' }, {
        state: 'completed',
        progress: 100,
        outputKey,
        finishedAt: new Date(),
        result: {
          outputFormat: output.format,
          outputSize: output.size,
          outputFileName,
          ...(message !== undefined ? { message } : {}),
          ...(output.width !== undefined ? { width: output.width } : {}),
          ...(output.height !== undefined ? { height: output.height } : {}),
          ...(output.duration !== undefined ? { duration: output.duration } : {}),
          ...(output.bitrate !== undefined ? { bitrate: output.bitrate } : {}),
        },
      });
      if (!completed.affected) {
        await this.storage.delete(outputKey); // nobody will ever read this output
        return;
      }
      await this.events.finished(job.id);
    } catch (err) {
      const failure = toFailure(err);
      const lastAttempt = bullJob.attemptsMade + 1 >= (bullJob.opts.attempts ?? 1);
      if (!failure && !lastAttempt) {
        await this.jobs.update({ id: job.id, state: 'running' }, { state: 'queued', progress: 0 });
        throw err; // BullMQ retries with backoff
      }
      this.logger.warn(`Job ${job.id} failed: ${(err as Error).message}`);
      // Retries spent on a transient fetch error (host unresolvable, refused, timed out): the job
      // failed because of its input, not of processing, so it keeps the fetch's code and message.
      const final = failure ?? lastFetchFailure(err);
      await this.fail(job.id, final?.code ?? 'processing_failed', final?.message ?? 'Processing failed after several attempts.');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Marks a job failed and refunds it, once; used for BullMQ's own failures too (stalled too often). */
  async fail(jobId: string, code: string, message: string): Promise<void> {
    // The state and the refund commit together: nobody sees a failed job still charged.
    const failed = await this.jobs.manager.transaction(async (tx) => {
      const [rows] = await tx.query(
        `UPDATE jobs SET state = 'failed', error_code = $2, error_message = $3, finished_at = now()
         WHERE id = $1 AND state IN ('queued', 'running') RETURNING id`,
        [jobId, code, message],
      );
      if (rows.length === 0) return false;
      await this.credits.refund(jobId, tx);
      return true;
    });
    if (failed) await this.events.finished(jobId);
  }

  private async fetchInput(job: Job, dir: string): Promise<{ path: string; name: string }> {
    const path = join(dir, 'input');
    if (job.input.fileId) {
      const upload = await this.uploads.findOneBy({ id: job.input.fileId, accountId: job.accountId });
      if (!upload) throw new JobFailure('input_fetch_failed', 'The uploaded input file no longer exists.');
      try {
        await this.storage.downloadToFile(upload.storageKey, path);
      } catch (err) {
        if (err instanceof ObjectNotFoundError) throw new JobFailure('input_fetch_failed', 'The uploaded input file no longer exists.');
        throw err;
      }
      return { path, name: upload.fileName };
    }
    if (job.submissionId && !job.input.url) {
      // A drop's auto-conversion reads the submission's stored original.
      const [row] = await this.jobs.query('SELECT storage_key, file_name FROM submissions WHERE id = $1', [job.submissionId]);
      if (!row) throw new JobFailure('input_fetch_failed', 'The submission was deleted before it could be converted.');
      await this.storage.downloadToFile(row.storage_key, path);
      return { path, name: row.file_name };
    }
    const account = await this.accounts.findOneByOrFail({ id: job.accountId });
    const maxBytes = limitsOf(account.plan).maxFileSizeMB * MB;
    await this.http.download(job.input.url!, path, { maxBytes, timeoutMs: FETCH_TIMEOUT_MS });
    return { path, name: sanitizeFileName(safeDecode(new URL(job.input.url!).pathname.split('/').pop() || 'output')) };
  }

  /** ffmpeg reports often; the row is written at most every 2 percentage points or second. */
  private progressReporter(jobId: string): (percent: number) => void {
    let last = 0;
    let lastAt = 0;
    return (percent) => {
      const p = Math.max(0, Math.min(99, Math.floor(percent)));
      if (p <= last || (p - last < 2 && Date.now() - lastAt < 1000)) return;
      last = p;
      lastAt = Date.now();
      this.jobs.update({ id: jobId, state: 'running' }, { progress: p }).catch(() => undefined);
    };
  }
}

/** Permanent failures with their job error code; undefined for what deserves a retry. */
function toFailure(err: unknown): { code: string; message: string } | undefined {
  if (err instanceof JobFailure) return { code: err.code, message: err.message };
  if (err instanceof MediaError) return { code: err.code, message: err.message };
  if (err instanceof FetchError) {
    if (err.code === 'input_too_large') return { code: 'input_too_large', message: err.message };
    if (err.code === 'blocked_address' || err.code === 'invalid_url') return { code: 'input_fetch_failed', message: err.message };
    if (/\b4\d\d\b/.test(err.message)) return { code: 'input_fetch_failed', message: err.message }; // a 4xx will not heal
  }
  return undefined;
}

/** decodeURIComponent, except that a malformed escape (`%zz`, valid in a URL) keeps the raw text instead of throwing. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The job error of a transient FetchError once no retry is left (its message is safe to show). */
function lastFetchFailure(err: unknown): { code: string; message: string } | undefined {
  if (!(err instanceof FetchError)) return undefined;
  return { code: err.code === 'timeout' ? 'timeout' : 'input_fetch_failed', message: err.message };
}

function extensionOf(format: string): string {
  return { jpeg: 'jpg', tiff: 'tif' }[format] ?? format;
}

