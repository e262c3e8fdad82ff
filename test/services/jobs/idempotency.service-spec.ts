import { Transactions } from '../../../src/database/transactions';
import { IDEMPOTENCY_WINDOW_MS, IdempotencyService, type IdempotentRequest } from '../../../src/jobs/idempotency.service';
import { JobsModule } from '../../../src/jobs/jobs.module';
import { newServiceTest, tenant, type ServiceTest } from '../service-test';
import { mediaQueue } from '../stand-ins';

/** Idempotency keys (per API key, 24 h) on the real idempotency_records table, below POST /v1/jobs. */
describe('IdempotencyService', () => {
  let t: ServiceTest;
  let idempotency: IdempotencyService;

  beforeAll(async () => {
    t = await newServiceTest({ modules: [JobsModule], standIns: [mediaQueue()] });
    idempotency = t.get(IdempotencyService);
  });
  afterAll(() => t.close());

  const ANSWER = { status: 202, body: { id: 'job_1', state: 'queued' } };
  const record = (apiKeyId: string, request: IdempotentRequest, at: Date) => t.get(Transactions).run((tx) => idempotency.record(tx, apiKeyId, request, ANSWER, at));

  it("the body's idempotencyKey wins over the header; the fingerprint ignores the key and the order of fields", () => {
    const a = idempotency.request({ idempotencyKey: 'k1', tool: 'image-resize', options: { width: 10, height: 5 } }, 'header-key')!;
    const b = idempotency.request({ options: { height: 5, width: 10 }, tool: 'image-resize' }, 'k1')!;
    expect(a).toEqual(b);
    expect(idempotency.request({ tool: 'image-resize' }, undefined)).toBeUndefined();
    expect(idempotency.request({ tool: 'image-resize', options: { width: 11 } }, 'k1')!.hash).not.toBe(a.hash);
  });

  it('a free key replays nothing; a recorded one replays the stored status and body', async () => {
    const { key } = await tenant(t);
    const request = idempotency.request({ tool: 'image-resize' }, `k-${key.id}`)!;
    const now = new Date();
    expect(await idempotency.replay(key.id, request, now)).toBeUndefined();
    expect(await record(key.id, request, now)).toBe(true);
    expect(await idempotency.replay(key.id, request, now)).toEqual(ANSWER);
  });

  it('the same key with another body is idempotency_conflict', async () => {
    const { key } = await tenant(t);
    const now = new Date();
    await record(key.id, idempotency.request({ tool: 'image-resize' }, 'same')!, now);
    await expect(idempotency.replay(key.id, idempotency.request({ tool: 'image-convert' }, 'same')!, now)).rejects.toMatchObject({ code: 'idempotency_conflict' });
  });

  it('keys are per API key: another key may use the same value', async () => {
    const { key } = await tenant(t);
    const { key: other } = await tenant(t);
    const request = idempotency.request({ tool: 'image-resize' }, 'shared-value')!;
    const now = new Date();
    await record(key.id, request, now);
    expect(await idempotency.replay(other.id, request, now)).toBeUndefined();
    expect(await idempotency.replay(other.id, idempotency.request({ tool: 'image-convert' }, 'shared-value')!, now)).toBeUndefined();
  });

  it('after the 24 h window the key is free again, also for another body', async () => {
    const { key } = await tenant(t);
    const request = idempotency.request({ tool: 'image-resize' }, 'old')!;
    const then = new Date(Date.now() - IDEMPOTENCY_WINDOW_MS - 1000);
    await record(key.id, request, then);
    expect(await idempotency.replay(key.id, request, new Date())).toBeUndefined();
    expect(await idempotency.replay(key.id, idempotency.request({ tool: 'image-convert' }, 'old')!, new Date())).toBeUndefined();
  });
});
