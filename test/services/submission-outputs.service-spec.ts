import { Readable } from 'node:stream';
import { DataSource } from 'typeorm';
import { newId } from '../../src/common/ids';
import { Transactions } from '../../src/database/transactions';
import type { Drop } from '../../src/drops/drop.entity';
import { DropsRepository } from '../../src/drops/drops.repository';
import { DropsService } from '../../src/drops/drops.service';
import { StoredKeyReferences } from '../../src/retention/stored-key-references';
import { STORAGE, type StorageDriver } from '../../src/storage/storage.driver';
import type { SubmissionOutputFile } from '../../src/submissions/submission.entity';
import { SubmissionsRepository } from '../../src/submissions/submissions.repository';
import { SubmissionsService } from '../../src/submissions/submissions.service';
import { NEW_DROP_SETTINGS } from '../support/drops';
import { SubmissionsModule } from '../../src/submissions/submissions.module';
import { newServiceTest, tenant, type ServiceTest } from './service-test';
import { mediaQueue, webhookQueue } from './stand-ins';

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * A drop template's files (submission_outputs) belong to their submission, on the real Postgres:
 * recorded once however often the run's end is heard, seen by retention's reference checks,
 * deleted with the submission or its drop — also when the run records them while the deletion runs.
 */
describe('submission outputs', () => {
  let module: ServiceTest;
  let submissions: SubmissionsRepository;
  let transactions: Transactions;
  let storage: StorageDriver;
  let db: DataSource;

  beforeAll(async () => {
    // StoredKeyReferences is retention's; RetentionModule itself is not imported, its purge would sweep on a timer.
    module = await newServiceTest({ modules: [SubmissionsModule], providers: [StoredKeyReferences], standIns: [mediaQueue(), webhookQueue()] });
    submissions = module.get(SubmissionsRepository);
    transactions = module.get(Transactions);
    storage = module.get(STORAGE);
    db = module.get(DataSource);
  });
  afterAll(() => module.close());

  /** The outputs' files in the store, as the run left them. */
  const stored = async (outputs: SubmissionOutputFile[]) => {
    for (const o of outputs) await storage.put(o.storageKey, Readable.from(Buffer.alloc(o.size)));
    return outputs;
  };
  const existing = async (outputs: SubmissionOutputFile[]) => (await Promise.all(outputs.map((o) => storage.exists(o.storageKey)))).filter(Boolean).length;

  async function submissionWithDrop(): Promise<{ drop: Drop; id: string; accountId: string }> {
    const { account } = await tenant(module);
    const drops = module.get(DropsRepository);
    const dropId = newId('drp');
    await drops.insert({ id: dropId, accountId: account.id, slug: `out-${dropId.slice(4).toLowerCase()}`, name: 'd', ...NEW_DROP_SETTINGS });
    const drop = (await drops.findById(dropId))!;
    const id = newId('sub');
    await transactions.run(async (tx) => {
      await drops.addSubmission(tx, dropId, 10);
      await submissions.insert(tx, {
        id,
        dropId,
        senderName: null,
        senderEmail: null,
        message: null,
        fileName: 'photo.png',
        fileSize: 10,
        fileMime: 'image/png',
        fileKind: 'image',
        storageKey: newId('obj'),
        status: 'processing',
        isLate: false,
        scanStatus: 'unscanned',
      });
    });
    return { drop, id, accountId: account.id };
  }

  const files = (): SubmissionOutputFile[] => [
    { name: 'webp', storageKey: newId('obj'), fileName: 'photo.webp', size: 20, contentType: 'image/webp' },
    { name: 'thumb', storageKey: newId('obj'), fileName: 'photo.webp', size: 5, contentType: 'image/webp' },
    { name: 'storyboard.vtt', storageKey: newId('obj'), fileName: 'photo.vtt', size: 3, contentType: 'text/vtt' },
  ];
  const record = (id: string, outputs: SubmissionOutputFile[]) => transactions.run((tx) => submissions.recordOutputs(tx, id, outputs, { status: 'ready', processingError: null }));

  it('records the files once, in the steps’ order, however often the end is heard; retention sees every key', async () => {
    const { id } = await submissionWithDrop();
    const outputs = files();
    const first = await record(id, outputs);
    const again = await record(id, outputs);
    expect(first).toEqual(again);
    expect(first).toMatchObject({ status: 'ready', processingError: null, outputs });
    expect((await submissions.findById(id))!.outputs).toEqual(outputs);
    expect((await submissions.listInDrop(first!.dropId, 10, undefined, {}))[0].outputs).toEqual(outputs);

    const retention = module.get(StoredKeyReferences);
    const keys = outputs.map((o) => o.storageKey);
    expect([...(await retention.referenced([...keys, 'obj_nobody']))].sort()).toEqual([...keys].sort());
    const walked: string[] = [];
    for (let after = ''; ;) {
      const page = await retention.referencedKeysAfter(after, 500);
      walked.push(...page);
      if (page.length < 500) break;
      after = page[page.length - 1];
    }
    expect(walked).toEqual(expect.arrayContaining(keys));
  });

  it('a submission deleted before the run ends: nothing recorded (the listener deletes the files)', async () => {
    const { drop, id } = await submissionWithDrop();
    await module.get(SubmissionsService).delete(drop, id);
    expect(await record(id, files())).toBeUndefined();
    expect(await db.query('SELECT 1 FROM submission_outputs WHERE submission_id = $1', [id])).toEqual([]);
  });

  it("deleting a submission deletes its outputs' files, also those its run records while the deletion waits", async () => {
    const { drop, id } = await submissionWithDrop();
    const outputs = await stored(files());
    // The run's transaction holds the row when the owner deletes the submission.
    const runner = db.createQueryRunner();
    await runner.connect();
    await runner.startTransaction();
    try {
      await submissions.recordOutputs(runner.manager, id, outputs, { status: 'ready', processingError: null });
      const deletion = module.get(SubmissionsService).delete(drop, id);
      // The deletion waits on the row lock (a condition, not a sleep).
      await waitFor(async () => (await db.query(`SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).length > 0);
      await runner.commitTransaction();
      await deletion;
    } finally {
      await runner.release();
    }
    expect(await existing(outputs)).toBe(0);
    expect(await db.query('SELECT 1 FROM submission_outputs WHERE submission_id = $1', [id])).toEqual([]);
  });

  it("deleting the drop deletes its submissions' outputs' files", async () => {
    const { drop, id, accountId } = await submissionWithDrop();
    const outputs = await stored(files());
    await record(id, outputs);
    await module.get(DropsService).delete(accountId, drop.slug);
    expect(await existing(outputs)).toBe(0);
    expect(await db.query('SELECT 1 FROM submission_outputs WHERE submission_id = $1', [id])).toEqual([]);
  });
});
