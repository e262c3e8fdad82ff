import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/config';
import { DropsRepository } from '../drops/drops.repository';
import { SubmissionEvents } from './submission-events';
import type { ScanStatus } from './submission.entity';
import { SubmissionsRepository } from './submissions.repository';
import { ClamdScanner } from '../scanning/clamd-scanner';
import { ScanRepository, type ScanTarget } from './scan.repository';
import { SubmissionQuarantine } from './submission-quarantine';

/** Pending files taken per sweep. */
const BATCH = 20;

/**
 * The malware scan of each submission. A submission is born `pending` when scanning is
 * on; right after its row commits, this process streams the stored file to clamd and records
 * `clean`, `infected` (quarantined: its files are moved out of reach first, SubmissionQuarantine) or `failed`, then sends `submission.scanned` — and
 * `submission.quarantined` for malware — to the drop's webhook. When clamd does not answer, the
 * file stays `pending` and a sweep (every SCAN_RETRY_SECONDS, in every API process, SKIP LOCKED)
 * tries again until it does: nothing is lost to an outage, and a process that dies mid-scan
 * leaves its files to the next sweep.
 */
@Injectable()
export class SubmissionScans implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SubmissionScans.name);
  private timer?: NodeJS.Timeout;
  private sweeping?: Promise<void>;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly scanner: ClamdScanner,
    private readonly scans: ScanRepository,
    private readonly submissions: SubmissionsRepository,
    private readonly drops: DropsRepository,
    private readonly events: SubmissionEvents,
    private readonly quarantine: SubmissionQuarantine,
    private readonly config: AppConfig,
  ) {}

  /** What a new submission's scan status starts as. */
  initialStatus(): ScanStatus {
    return this.scanner.enabled ? 'pending' : 'unscanned';
  }

  onApplicationBootstrap(): void {
    if (!this.scanner.enabled) return;
    this.timer = setInterval(() => void this.sweep(), this.config.SCAN_RETRY_SECONDS * 1000);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await Promise.allSettled([this.sweeping, ...this.inFlight]);
  }

  /** Starts the scan of a just-recorded submission; its outcome is the webhook's and the row's, not the caller's. */
  scanSoon(submissionId: string): void {
    if (!this.scanner.enabled) return;
    const run = this.scans
      .claim(submissionId)
      .then((target) => (target ? this.scan(target) : undefined))
      .catch((err: Error) => this.logger.warn({ submissionId, err: err.message }, 'Scan left to the sweep'))
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  /** One pass over the pending files whose last try is older than SCAN_RETRY_SECONDS. */
  sweep(): Promise<void> {
    this.sweeping ??= this.sweepOnce()
      .catch((err: Error) => this.logger.warn({ err: err.message }, 'Scan sweep failed'))
      .finally(() => (this.sweeping = undefined));
    return this.sweeping;
  }

  private async sweepOnce(): Promise<void> {
    if (!(await this.scanner.ping())) return; // still down: leave the files be until next time
    for (;;) {
      const due = await this.scans.claimDue(this.config.SCAN_RETRY_SECONDS, BATCH);
      for (const target of due) {
        try {
          await this.scan(target);
        } catch (err) {
          this.logger.warn({ submissionId: target.id, err: (err as Error).message }, 'Scan failed; retried later');
          return;
        }
      }
      if (due.length < BATCH) return;
    }
  }

  /** Scans one claimed file; throws (the file stays pending) when clamd is down (ScannerUnavailableError). */
  private async scan(target: ScanTarget): Promise<void> {
    // A file that cannot be read (deleted meanwhile, storage failing) throws too: the sweep tries again while the row exists.
    const verdict = await this.scanner.scan(await this.quarantine.readable(target.storageKey));
    const [status, signature] = 'failed' in verdict ? (['failed', null] as const) : verdict.infected ? (['infected', verdict.signature] as const) : (['clean', null] as const);
    const settled = status === 'infected' ? await this.quarantine.settleInfected(target.id, signature) : await this.scans.settle(target.id, status, signature);
    if (!settled) return;
    this.logger.log({ submissionId: target.id, status, signature }, 'Submission scanned');
    const [submission, drop] = await Promise.all([this.submissions.findById(target.id), this.drops.findById(target.dropId)]);
    if (!submission || !drop) return;
    await this.events.scanned(drop, submission).catch((err: Error) => this.logger.error(`Submission ${submission.id} scanned, but its webhook failed: ${err.message}`));
  }
}
