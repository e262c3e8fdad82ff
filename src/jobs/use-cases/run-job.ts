import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Job as BullJob } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/config';
import { sanitizeFileName } from '../../common/file-sniffer';
import { newId } from '../../common/ids';
import { limitsOf, MB } from '../../config/plans';
import { FetchError } from '../../http-fetch/fetch-error';
import { GuardedHttpClient } from '../../http-fetch/guarded-fetch';
import { MediaError } from '../../media/media.errors';
import { ObjectNotFoundError, STORAGE, type StorageDriver } from '../../storage/storage.driver';
import type { MediaJobData } from '../job-queue';
import type { StoredJobOutput, StoredJobResult } from '../job.entity';
import { storedOutputKeys } from '../job-outputs';
import { jobLogFields } from '../job-log-fields';
import { contentTypeOf } from '../../media/content-types';
import { fileNameFor, MAIN_OUTPUT, type ToolOutput, type ToolRun } from '../../tools/tool-definition';
import { type ClaimedJob, JobsRepository } from '../jobs.repository';
import { ToolRunner } from '../tool-runner';
import { SettleJob } from './settle-job';
import { ClamdScanner } from '../../scanning/clamd-scanner';
import { runStoppable } from '../../media/stop-signal';
import { type RunDir, RunDirs } from '../run-dirs';

const FETCH_TIMEOUT_MS = 120_000;
/** How often a second entry of a running job checks whether the first run is over. */
const CLAIM_POLL_MS = 500;
/** A permanent failure: the job fails now with this code instead of being retried. */
class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs one media job in a worker, top to bottom: claim it (queued → running), fetch the input to
 * the run's directory (RunDirs), run the tool, store its outputs, settle (running → completed, SettleJob). Permanent
 * errors (not media, too large, blocked URL) fail the job at once and refund it; transient ones
 * (network, storage, a killed worker) put it back in line (running → queued) for BullMQ, which
 * retries with backoff, and the last attempt fails and refunds. A run commits two state writes
 * (running, then completed or failed), each one `UPDATE … RETURNING` whose row feeds what follows.
 */
@Injectable()
export class RunJob {
  private readonly logger = new Logger(RunJob.name);

  constructor(
    private readonly jobs: JobsRepository,
    private readonly clock: Clock,
    @Inject(STORAGE) private readonly storage: StorageDriver,
    private readonly http: GuardedHttpClient,
    private readonly tools: ToolRunner,
    private readonly settle: SettleJob,
    private readonly config: AppConfig,
    private readonly scanner: ClamdScanner,
    private readonly runDirs: RunDirs,
  ) {}

  async process(bullJob: BullJob<MediaJobData>): Promise<void> {
    const runId = randomUUID();
    const job = await this.claim(bullJob.data.jobId, runId);
    if (!job) return; // canceled, finished, or withdrawn before it ran
    const logAs = jobLogFields(job);
    this.logger.log({ ...logAs, attempt: bullJob.attemptsMade + 1 }, 'Job started');
    // The claim's sign of life, as often as BullMQ renews its own lock. A run that lost its claim
    // (the job was canceled — a pipeline's running step —, or another run took it over) stops its
    // tool: nobody will read what it makes.
    const stop = new AbortController();
    const heartbeat = setInterval(
      () =>
        void this.jobs
          .heartbeat(job.id, runId)
          .then((held) => held || stop.abort())
          .catch(() => undefined),
      this.config.WORKER_LOCK_DURATION_MS / 2,
    );
    heartbeat.unref();
    let runDir: RunDir | undefined;
    let clean = false; // a run that ended normally leaves its directory to the next one
    try {
      runDir = await this.runDirs.acquire();
      const dir = runDir.path;
      const { path: inputPath, name } = await this.fetchInput(job, dir);
      await this.refuseInfected(inputPath);
      const progress = this.progressReporter(job.id);
      // A pipeline's steps each name their files after themselves (photo-small.webp, photo-thumb.webp).
      const baseName = [name.replace(/\.[^.]*$/, '') || 'output', ...(job.stepName ? [job.stepName] : [])].join('-');
      // The tool writes its outputs beside the input (`output.<ext>`; the input is `input`).
      const run = await runStoppable(stop.signal, () => this.tools.run(job.tool, inputPath, dir, baseName, job.options, progress));
      const { outputKey, outputKeys, result } = await this.storeOutputs(run, baseName);
      // Only a job still running completes: one failed (and refunded) or re-run meanwhile keeps its state.
      const completed = await this.settle.complete(job.id, outputKey, result, outputKeys);
      clean = true;
      if (!completed) {
        await this.storage.deleteMany(storedOutputKeys({ outputKey, outputKeys })); // nobody will ever read these outputs
        return;
      }
      this.logger.log({ ...logAs, outputSize: result.outputSize }, 'Job completed');
    } catch (err) {
      if (stop.signal.aborted) {
        // Its job is no longer this run's: neither retried nor failed from here.
        this.logger.log(logAs, 'Job run stopped: the job was canceled or taken over');
        return;
      }
      const failure = toFailure(err);
      const lastAttempt = bullJob.attemptsMade + 1 >= (bullJob.opts.attempts ?? 1);
      if (!failure && !lastAttempt) {
        await this.jobs.requeue(job.id);
        this.logger.log({ ...logAs, err: (err as Error).message }, 'Job attempt failed; retrying');
        throw err; // BullMQ retries with backoff
      }
      this.logger.warn({ ...logAs, err: (err as Error).message }, 'Job failed');
      // Retries spent on a transient fetch error (host unresolvable, refused, timed out): the job
      // failed because of its input, not of processing, so it keeps the fetch's code and message.
      const final = failure ?? lastFetchFailure(err);
      await this.fail(job.id, final?.code ?? 'processing_failed', final?.message ?? 'Processing failed after several attempts.');
    } finally {
      clearInterval(heartbeat);
      await runDir?.release(clean).catch((err: Error) => this.logger.warn(`Could not clean the run directory ${runDir?.path}: ${err.message}`));
    }
  }

  /**
   * Stores a run's files, the main one and the further named ones, and describes them for the job's
   * result. Names and file names follow the contract: the main output is `output`, downloading as
   * `<baseName>.<ext>`; a further one downloads as `<baseName>.<ext>`, or `<baseName>-<name>.<ext>`
   * when that is taken. One that fails to store removes those already stored (the attempt is retried).
   */
  private async storeOutputs(run: ToolRun, baseName: string): Promise<{ outputKey: string | null; outputKeys: Record<string, string>; result: StoredJobResult }> {
    const { output, outputs = {}, message, details } = run;
    const stored: string[] = [];
    try {
      const put = async (file: ToolOutput) => {
        const key = newId('obj');
        await this.storage.putFile(key, file.path, contentTypeOf(file.format));
        stored.push(key);
        return key;
      };
      const result: StoredJobResult = { ...(message !== undefined ? { message } : {}), ...(details !== undefined ? { details } : {}) };
      const taken = new Set<string>();
      let outputKey: string | null = null;
      if (output) {
        outputKey = await put(output);
        result.outputFormat = output.format;
        result.outputSize = output.size;
        result.outputFileName = fileNameFor(baseName, output.format);
        taken.add(result.outputFileName);
        Object.assign(result, describe(output));
        if (output.details) result.outputDetails = output.details;
      }
      const outputKeys: Record<string, string> = {};
      for (const [name, file] of Object.entries(outputs)) {
        if (!output || name === MAIN_OUTPUT || !/^[a-z][a-z0-9-]{0,31}$/.test(name)) throw new Error(`A tool returned an output named "${name}" it may not have.`);
        outputKeys[name] = await put(file);
        let fileName = fileNameFor(baseName, file.format);
        if (taken.has(fileName)) fileName = fileNameFor(`${baseName}-${name}`, file.format);
        taken.add(fileName);
        (result.outputs ??= {})[name] = { format: file.format, size: file.size, fileName, ...describe(file), ...(file.details ? { details: file.details } : {}) };
      }
      return { outputKey, outputKeys, result };
    } catch (err) {
      await this.storage.deleteMany(stored).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Claims the job for this run. The queue can hold a job twice (the sweeper re-adds one Redis
   * lost while its first worker still runs it): the second entry waits until the first run ends
   * (then there is nothing to do) or its worker is gone (its lease, WORKER_LOCK_DURATION_MS, lapses),
   * so a job never runs twice at once.
   */
  private async claim(jobId: string, runId: string): Promise<ClaimedJob | undefined> {
    for (;;) {
      const job = await this.jobs.start(jobId, this.clock.now(), runId, this.config.WORKER_LOCK_DURATION_MS);
      if (job) return job;
      const current = await this.jobs.findById(jobId);
      if (current?.state !== 'running') return undefined;
      await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
    }
  }

  /** Marks a job failed and refunds it, once (SettleJob.fail); the media processors call it for BullMQ's own failures too (stalled too often). */
  fail(jobId: string, code: string, message: string): Promise<void> {
    return this.settle.fail(jobId, code, message);
  }

  private async fetchInput(job: ClaimedJob, dir: string): Promise<{ path: string; name: string }> {
    const path = join(dir, 'input');
    const { storageKey, fileName } = job.input;
    if (storageKey) {
      // An upload or a drop submission: its stored object, named in the job's input at admission.
      try {
        await this.storage.downloadToFile(storageKey, path);
      } catch (err) {
        if (!(err instanceof ObjectNotFoundError)) throw err;
        const gone = job.submissionId ? 'The submission was deleted before it could be converted.' : 'The uploaded input file no longer exists.';
        throw new JobFailure('input_fetch_failed', gone);
      }
      return { path, name: fileName ?? 'input' };
    }
    if (job.accountPlan === null) throw new JobFailure('input_fetch_failed', 'The account no longer exists.');
    const maxBytes = limitsOf(job.accountPlan).maxFileSizeMB * MB;
    await this.http.download(job.input.url!, path, { maxBytes, timeoutMs: FETCH_TIMEOUT_MS });
    return { path, name: sanitizeFileName(safeDecode(new URL(job.input.url!).pathname.split('/').pop() || 'output')) };
  }

  /**
   * Malware scanning on (CLAMD_SOCKET/CLAMD_HOST): an infected input fails the job (`input_infected`,
   * refunded by the fail path) before any tool reads it; a scanner that does not answer is a transient
   * error (the attempt is retried).
   */
  private async refuseInfected(inputPath: string): Promise<void> {
    if (!this.scanner.enabled) return;
    const verdict = await this.scanner.scanFile(inputPath);
    if ('infected' in verdict && verdict.infected) {
      throw new JobFailure('input_infected', `The input carries malware (${verdict.signature}); it was not processed.`);
    }
  }

  /** ffmpeg reports often; the row is written at most every 2 percentage points or second (wall time, not the Clock). */
  private progressReporter(jobId: string): (percent: number) => void {
    let last = 0;
    let lastAt = 0;
    return (percent) => {
      const p = Math.max(0, Math.min(99, Math.floor(percent)));
      if (p <= last || (p - last < 2 && Date.now() - lastAt < 1000)) return;
      last = p;
      lastAt = Date.now();
      this.jobs.setProgress(jobId, p).catch(() => undefined);
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

/** The optional media fields of an output, only those it has. */
function describe(file: ToolOutput): Pick<StoredJobOutput, 'width' | 'height' | 'duration' | 'bitrate'> {
  return {
    ...(file.width !== undefined ? { width: file.width } : {}),
    ...(file.height !== undefined ? { height: file.height } : {}),
    ...(file.duration !== undefined ? { duration: file.duration } : {}),
    ...(file.bitrate !== undefined ? { bitrate: file.bitrate } : {}),
  };
}
