import { DataSource } from 'typeorm';
import { Readable } from 'node:stream';
import { newId } from '../../src/common/ids';
import type { Drop } from '../../src/drops/drop.entity';
import { DropsRepository } from '../../src/drops/drops.repository';
import { DropsService } from '../../src/drops/drops.service';
import { STORAGE, type StorageDriver } from '../../src/storage/storage.driver';
import { IntakeService } from '../../src/submissions/intake.service';
import { SubmissionsModule } from '../../src/submissions/submissions.module';
import { SubmissionsService } from '../../src/submissions/submissions.service';
import { NEW_DROP_SETTINGS } from '../support/drops';
import { balanceOf, newServiceTest, tenant, type ServiceTest } from './service-test';
import { mediaQueue, webhookQueue } from './stand-ins';

/** Drop counters and the intake transaction (counters, conversion job, row) on the real Postgres, through the real SubmissionsModule. */
describe('IntakeService.record and drop counters', () => {
  let t: ServiceTest;
  let intake: IntakeService;
  let drops: DropsRepository;
  let storage: StorageDriver;
  let db: DataSource;

  beforeAll(async () => {
    t = await newServiceTest({ modules: [SubmissionsModule], standIns: [mediaQueue(), webhookQueue()] });
    intake = t.get(IntakeService);
    drops = t.get(DropsRepository);
    storage = t.get(STORAGE);
    db = t.get(DataSource);
  });
  afterAll(() => t.close());

  async function newDrop(accountId: string, settings: Partial<Drop> = {}): Promise<Drop> {
    const id = newId('drp');
    await drops.insert({ id, accountId, slug: `svc-${id.slice(4).toLowerCase()}`, name: 'd', ...NEW_DROP_SETTINGS, ...settings });
    return (await drops.findById(id))!;
  }
  const png = (size: number) => ({ storageKey: newId('obj'), size, mime: 'image/png', kind: 'image' as const, ext: 'png' });

  it('counts concurrent arrivals exactly, and a deletion takes its file and bytes off once', async () => {
    const { account } = await tenant(t);
    const drop = await newDrop(account.id);
    const files = Array.from({ length: 8 }, (_, i) => png(100 + i));
    // Each file is in the store, as the upload left it; the deletion must take it away.
    for (const file of files) await storage.put(file.storageKey, Readable.from(Buffer.alloc(file.size)));
    const recorded = await Promise.all(files.map((file, i) => intake.record(drop, {}, `f${i}.png`, file)));
    expect(await drops.findById(drop.id)).toMatchObject({ submissionCount: 8, totalBytes: 8 * 100 + 28 });

    const victim = recorded[3].submission;
    const submissions = t.get(SubmissionsService);
    const outcomes = await Promise.allSettled([submissions.delete(drop, victim.id), submissions.delete(drop, victim.id)]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ code: 'not_found' });
    expect(await drops.findById(drop.id)).toMatchObject({ submissionCount: 7, totalBytes: 8 * 100 + 28 - 103 });
    expect(await storage.exists(victim.storageKey)).toBe(false);
    expect(await storage.exists(recorded[4].submission.storageKey)).toBe(true);
  });

  it('a drop deleted before the row commits: 404 and no row', async () => {
    const { account } = await tenant(t);
    const drop = await newDrop(account.id);
    await t.get(DropsService).delete(account.id, drop.slug);
    await expect(intake.record(drop, {}, 'late.png', png(10))).rejects.toMatchObject({ code: 'not_found' });
    expect(await db.query('SELECT id FROM submissions WHERE drop_id = $1', [drop.id])).toEqual([]);
  });

  it('an auto-converting drop: the row is born processing with its paid, queued-later job', async () => {
    const { account } = await tenant(t, { credits: 3 });
    const drop = await newDrop(account.id, { autoConvertTo: 'webp' });
    const { submission, conversion } = await intake.record(drop, { senderName: 'Ann' }, 'holiday.png', png(50));
    expect(submission).toMatchObject({ status: 'processing', senderName: 'Ann', fileName: 'holiday.png' });
    expect(conversion).toMatchObject({ submissionId: submission.id, apiKeyId: null, tool: 'image-convert', input: { storageKey: submission.storageKey, fileName: 'holiday.png' } });
    expect(await balanceOf(t, account.id)).toBe(3 - conversion!.cost);
  });

  it('an owner without credits: the row is born ready, nothing is charged or undone', async () => {
    const { account } = await tenant(t, { credits: 0 });
    const drop = await newDrop(account.id, { autoConvertTo: 'webp' });
    const { submission, conversion } = await intake.record(drop, {}, 'holiday.png', png(50));
    expect(submission.status).toBe('ready');
    expect(conversion).toBeUndefined();
    expect(await db.query('SELECT id FROM jobs WHERE account_id = $1', [account.id])).toEqual([]);
    expect(await drops.findById(drop.id)).toMatchObject({ submissionCount: 1, totalBytes: 50 });
  });
});
