import type { ChannelSubscriber, ListenClient } from '../database/listen-client';
import { JOB_ENDED_CHANNEL, JobWaits, jobWaiters } from './job-waits';
import type { JobState } from './lifecycle/job-states';

/** JobWaits without Postgres: its listening connection is a stand-in that never dials; notifications are handed in directly. */
describe('JobWaits', () => {
  let waits: JobWaits;
  let subscribed: { channel: string; subscriber: ChannelSubscriber } | undefined;
  const notify = (jobId: string) => subscribed!.subscriber.onNotification(jobId);
  const count = async () => (await jobWaiters.get()).values[0]?.value ?? 0;

  beforeEach(() => {
    subscribed = undefined;
    const listen = {
      subscribe: (channel: string, subscriber: ChannelSubscriber) => {
        subscribed = { channel, subscriber };
        return () => undefined;
      },
    };
    waits = new JobWaits(listen as unknown as ListenClient);
  });
  afterEach(() => waits.onApplicationShutdown());

  it('listens on its channel', () => {
    expect(JOB_ENDED_CHANNEL).toBe('dropline_job_ended');
  });

  it('an end notified while the job is being read is not lost: the waiter reads again at once', async () => {
    let reads = 0;
    const read = async () => {
      reads++;
      // The job ends (and its NOTIFY arrives) between the registration and the end of the first read.
      if (reads === 1) notify('job_a');
      return { state: (reads === 1 ? 'running' : 'completed') as JobState };
    };
    const started = Date.now();
    await expect(waits.until('job_a', read, 30_000, new AbortController().signal)).resolves.toEqual({ state: 'completed' });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(reads).toBe(2);
    expect(await count()).toBe(0);
  });

  it('a notification wakes only the waiters of that job', async () => {
    const states: Record<string, JobState> = { job_b: 'queued', job_c: 'queued' };
    const b = waits.until('job_b', async () => ({ state: states.job_b }), 30_000, new AbortController().signal);
    const c = waits.until('job_c', async () => ({ state: states.job_c }), 300, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 20));
    expect(await count()).toBe(2);
    states.job_b = 'failed';
    notify('job_b');
    await expect(b).resolves.toEqual({ state: 'failed' });
    await expect(c).resolves.toEqual({ state: 'queued' }); // its own timeout, with the last reading
    expect(await count()).toBe(0);
  });

  it('an abort (the client hung up) ends the wait at once and leaves no waiter and no timer', async () => {
    const gone = new AbortController();
    const waiting = waits.until('job_d', async () => ({ state: 'running' as JobState }), 60_000, gone.signal);
    await new Promise((r) => setTimeout(r, 20));
    expect(await count()).toBe(1);
    const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    gone.abort();
    await expect(waiting).resolves.toBeUndefined();
    expect(await count()).toBe(0);
    expect(process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length).toBe(timers - 1);
  });

  it('on shutdown every waiter answers at once with the job as it is', async () => {
    const waiting = waits.until('job_e', async () => ({ state: 'running' as JobState }), 60_000, new AbortController().signal);
    await new Promise((r) => setTimeout(r, 20));
    waits.onModuleDestroy();
    await expect(waiting).resolves.toEqual({ state: 'running' });
    expect(await count()).toBe(0);
  });
});
