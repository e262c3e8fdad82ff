import type { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids';
import { Contract } from '../../src/contract/contract';
import { CreditsService } from '../../src/credits/credits.service';
import type { Drop } from '../../src/drops/drop.entity';
import { DropsRepository } from '../../src/drops/drops.repository';
import { IdempotencyService } from '../../src/jobs/idempotency.service';
import { JobAdmission } from '../../src/jobs/job-admission';
import { JobDispatch } from '../../src/jobs/job-dispatch';
import { JobRefunds } from '../../src/jobs/job-refunds';
import { JobQueue } from '../../src/jobs/job-queue';
import { FileDeletions } from '../../src/storage/file-deletions';
import { STORAGE } from '../../src/storage/storage.driver';
import { AutoConvertService } from '../../src/submissions/auto-convert.service';
import { IntakeService } from '../../src/submissions/intake.service';
import { SubmissionEvents } from '../../src/submissions/submission-events';
import { SubmissionsService } from '../../src/submissions/submissions.service';
import { DropsService } from '../../src/drops/drops.service';
import { NEW_DROP_SETTINGS } from '../support/drops';
import { DropCache } from '../../src/drops/drop-cache';
import { DropGate } from '../../src/drops/drop-gate';
import { SubmissionScans } from '../../src/submissions/submission-scans';
import { balanceOf, serviceModule, tenant } from './service-module';
import { TemplatesRepository } from '../../src/templates/templates.repository';
import { TemplatesService } from '../../src/templates/templates.service';
import { PipelineCheck } from '../../src/tools/pipeline-check';
import { ToolOptions } from '../../src/tools/tool-options';

/** Drop counters and the intake transaction (counters, conversion job, row) on the real Postgres. */
describe('IntakeService.record and drop counters', () => {
  let module: TestingModule;
  let intake: IntakeService;
  let drops: DropsRepository;
  let db: DataSource;
  const queued: string[] = [];
  const deletedFiles: string[] = [];

  beforeAll(async () => {
    const queue = { prefix: 'bull:services-test', add: async (_q: string, id: string) => void queued.push(id), remove: async () => undefined };
    const storage = { deleteMany: async (keys: string[]) => void deletedFiles.push(...keys), delete: async (key: string) => void deletedFiles.push(key) };
    ({ module } = await serviceModule([
      IntakeService,
      SubmissionsService,
      DropsService,
      DropCache,
      AutoConvertService,
      // A drop's template (processWith) is read and planned at intake.
      TemplatesService,
      TemplatesRepository,
      PipelineCheck,
      ToolOptions,
      JobAdmission,
      JobDispatch,
      JobRefunds,
      CreditsService,
      IdempotencyService,
      { provide: Contract, useFactory: () => new Contract() },
      { provide: JobQueue, useValue: queue },
      { provide: STORAGE, useValue: storage },
      FileDeletions,
      { provide: SubmissionEvents, useValue: { created: async () => undefined } },
      // The password gate and the malware scans are the e2e suites' (drop-trust, drop-scanning).
      { provide: DropGate, useValue: { admit: async () => undefined } },
      { provide: SubmissionScans, useValue: { initialStatus: () => 'unscanned', scanSoon: () => undefined } },
    ]));
    intake = module.get(IntakeService);
    drops = module.get(DropsRepository);
    db = module.get(DataSource);
  });
  afterAll(() => module.close());

  async function newDrop(accountId: string, settings: Partial<Drop> = {}): Promise<Drop> {
    const id = newId('drp');
    await drops.insert({ id, accountId, slug: `svc-${id.slice(4).toLowerCase()}`, name: 'd', ...NEW_DROP_SETTINGS, ...settings });
    return (await drops.findById(id))!;
  }
  const png = (size: number) => ({ storageKey: newId('obj'), size, mime: 'image/png', kind: 'image' as const, ext: 'png' });

  it('counts concurrent arrivals exactly, and a deletion takes its file and bytes off once', async () => {
    const { account } = await tenant(module);
    const drop = await newDrop(account.id);
    const recorded = await Promise.all(Array.from({ length: 8 }, (_, i) => intake.record(drop, {}, `f${i}.png`, png(100 + i))));
    expect(await drops.findById(drop.id)).toMatchObject({ submissionCount: 8, totalBytes: 8 * 100 + 28 });

    const victim = recorded[3].submission;
    const submissions = module.get(SubmissionsService);
    const outcomes = await Promise.allSettled([submissions.delete(drop, victim.id), submissions.delete(drop, victim.id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ status: 404 });
    expect(await drops.findById(drop.id)).toMatchObject({ submissionCount: 7, totalBytes: 8 * 100 + 28 - 103 });
    expect(deletedFiles).toContain(victim.storageKey);
  });

  it('a drop deleted before the row commits: 404 and no row', async () => {
    const { account } = await tenant(module);
    const drop = await newDrop(account.id);
    await module.get(DropsService).delete(account.id, drop.slug);
    await expect(intake.record(drop, {}, 'late.png', png(10))).rejects.toMatchObject({ status: 404 });
    expect(await db.query('SELECT id FROM submissions WHERE drop_id = $1', [drop.id])).toEqual([]);
  });

  it('an auto-converting drop: the row is born processing with its paid, queued-later job', async () => {
    const { account } = await tenant(module, { credits: 3 });
    const drop = await newDrop(account.id, { autoConvertTo: 'webp' });
    const { submission, conversion } = await intake.record(drop, { senderName: 'Ann' }, 'holiday.png', png(50));
    expect(submission).toMatchObject({ status: 'processing', senderName: 'Ann', fileName: 'holiday.png' });
    expect(conversion).toMatchObject({ submissionId: submission.id, apiKeyId: null, tool: 'image-convert', input: { storageKey: submission.storageKey, fileName: 'holiday.png' } });
    expect(await balanceOf(module, account.id)).toBe(3 - conversion!.cost);
  });

  it('an owner without credits: the row is born ready, nothing is charged or undone', async () => {
    const { account } = await tenant(module, { credits: 0 });
    const drop = await newDrop(account.id, { autoConvertTo: 'webp' });
    const { submission, conversion } = await intake.record(drop, {}, 'holiday.png', png(50));
    expect(submission.status).toBe('ready');
    expect(conversion).toBeUndefined();
    expect(await db.query('SELECT id FROM jobs WHERE account_id = $1', [account.id])).toEqual([]);
    expect(await drops.findById(drop.id)).toMatchObject({ submissionCount: 1, totalBytes: 50 });
  });
});
