import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { fetch } from 'undici';
import { QUEUES } from '../../../src/queue/queue.module';
import { form, postForm, submit } from '../../support/intake';
import { type JobsApp, startJobsApp, waitForJob } from '../../support/jobs';
import { makePng } from '../../support/media-fixtures';
import { type TestApp, uniqueSlug } from '../../support/test-app';
import { startReceiver } from '../../support/webhook-receiver';
import type { JobAccepted } from '../../../generated/types';

jest.setTimeout(120_000);

const TOKEN = 'scrape-me-metrics-token';

/** Issue 12 item 7: Dropline's own metrics, scraped from /metrics after real jobs, intake and webhook deliveries. */
describe('dropline_ metrics', () => {
  let app: JobsApp;
  let t: TestApp;
  let files: JobsApp['files'];

  beforeAll(async () => {
    app = await startJobsApp('metrics', { METRICS_TOKEN: TOKEN });
    ({ t, files } = app);
  });
  afterAll(() => app?.close());

  async function scrape(): Promise<string> {
    const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  }

  /** The value of one sample (`name{labels} value`), 0 when absent; labels in prom-client's order. */
  function sample(text: string, name: string, labels: Record<string, string> = {}): number {
    const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
    for (const line of text.split('\n')) {
      const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m || m[1] !== name) continue;
      const have = m[2] ? m[2].split(',') : [];
      if (want.length === have.length && want.every((w) => have.includes(w))) return Number(m[3]);
    }
    return 0;
  }

  it('is refused without the token', async () => {
    expect((await fetch(`${t.baseUrl}/metrics`)).status).toBe(401);
  });

  it('counts jobs by tool and state, their durations, webhook outcomes and intake bytes', async () => {
    const before = await scrape();
    const receiver = await startReceiver((n) => ({ status: n === 1 ? 500 : 204 }));
    try {
      const tenant = await t.newTenant({ plan: 'pro', credits: 20 });
      const ok = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 16 }, webhookUrl: receiver.url } });
      const bad = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('notes.txt') }, options: { width: 16 } } });
      expect((await waitForJob(tenant.client, (ok.data as JobAccepted).id)).state).toBe('completed');
      expect((await waitForJob(tenant.client, (bad.data as JobAccepted).id)).state).toBe('failed');
      // One failed attempt (500), then a successful retry.
      await receiver.waitFor(2);

      const image = await makePng(40, 30);
      const upload = await postForm(`${t.baseUrl}/v1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.token}` },
        body: form({}, { data: image, name: 'a.png', type: 'image/png' }),
      });
      expect(upload.status).toBe(201);
      const drop = (await tenant.client.POST('/v1/drops', { body: { name: 'Inbox', slug: uniqueSlug() } })).data!.drop;
      const text = Buffer.from('hello metrics\n');
      expect((await submit(t, drop.slug, form({}, { data: text, name: 'n.txt', type: 'text/plain' }))).status).toBe(201);

      // The delivery's success is recorded just after the receiver answered: poll for it.
      let after = await scrape();
      for (
        let i = 0;
        i < 200 && sample(after, 'dropline_webhook_deliveries_total', { outcome: 'succeeded' }) <= sample(before, 'dropline_webhook_deliveries_total', { outcome: 'succeeded' });
        i++
      ) {
        await new Promise((r) => setTimeout(r, 100));
        after = await scrape();
      }
      const delta = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
      expect(delta('dropline_jobs_total', { tool: 'image-resize', state: 'completed' })).toBe(1);
      expect(delta('dropline_jobs_total', { tool: 'image-resize', state: 'failed' })).toBe(1);
      expect(delta('dropline_job_duration_seconds_count', { tool: 'image-resize' })).toBe(2);
      expect(delta('dropline_job_duration_seconds_sum', { tool: 'image-resize' })).toBeGreaterThan(0);
      expect(delta('dropline_job_duration_seconds_bucket', { tool: 'image-resize', le: '+Inf' })).toBe(2);
      expect(delta('dropline_webhook_deliveries_total', { outcome: 'retrying' })).toBe(1);
      expect(delta('dropline_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
      expect(delta('dropline_intake_bytes_total', { source: 'upload' })).toBe(image.length);
      expect(delta('dropline_intake_bytes_total', { source: 'submission' })).toBe(text.length);
    } finally {
      await receiver.close();
    }
  });

  it('counts a canceled job', async () => {
    const tenant = await t.newTenant({ plan: 'pro', credits: 5 });
    const image = t.app.get<Queue>(getQueueToken(QUEUES.image));
    await image.pause(); // the job stays queued, so it can be canceled
    try {
      const before = await scrape();
      const job = await tenant.client.POST('/v1/jobs', { body: { tool: 'image-resize', input: { url: files.url('icon.png') }, options: { width: 8 } } });
      expect((await tenant.client.POST('/v1/jobs/{id}/cancel', { params: { path: { id: (job.data as JobAccepted).id } } })).response.status).toBe(200);
      const after = await scrape();
      expect(
        sample(after, 'dropline_jobs_total', { tool: 'image-resize', state: 'canceled' }) - sample(before, 'dropline_jobs_total', { tool: 'image-resize', state: 'canceled' }),
      ).toBe(1);
    } finally {
      await image.resume();
    }
  });

  it('reports queue depth and active jobs per queue from BullMQ on each scrape', async () => {
    const audio = t.app.get<Queue>(getQueueToken(QUEUES.audio));
    const idle = await scrape();
    for (const queue of Object.values(QUEUES)) {
      expect(idle).toContain(`dropline_queue_depth{queue="${queue}"}`);
      expect(idle).toContain(`dropline_queue_active_jobs{queue="${queue}"}`);
    }
    // Two jobs far in the future (unknown ids: a worker would drop them) wait in the audio queue.
    const parked = await Promise.all(['a', 'b'].map((n) => audio.add('run', { jobId: `job_metrics_${n}` }, { delay: 3_600_000 })));
    try {
      const busy = await scrape();
      expect(sample(busy, 'dropline_queue_depth', { queue: QUEUES.audio }) - sample(idle, 'dropline_queue_depth', { queue: QUEUES.audio })).toBe(2);
    } finally {
      await Promise.all(parked.map((j) => j.remove()));
    }
    expect(sample(await scrape(), 'dropline_queue_depth', { queue: QUEUES.audio })).toBe(sample(idle, 'dropline_queue_depth', { queue: QUEUES.audio }));
  });
});
