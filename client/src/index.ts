/**
 * @dropline/client: the typed client generated from openapi.yaml (`../../generated`) and the few
 * helpers every integration writes otherwise. Types come from the contract: a mistyped option or
 * an unknown tool does not compile.
 */
import { Webhook } from 'standardwebhooks';
import { createDroplineClient, type DroplineClient } from '../../generated/client';
import type { Job, JobWebhookEvent, SubmissionWebhookEvent, Upload } from '../../generated/types';
import type { JobBody } from './pipelines';

export * from '../../generated/types';
export { createDroplineClient, type DroplineClient } from '../../generated/client';
export * from './pipelines';

export interface ClientOptions {
  /** Where Dropline runs, e.g. https://dropline.example.com */
  baseUrl: string;
  /** An API key, `dl_live_…`; omit for the public operations only. */
  apiKey?: string;
  fetch?: typeof globalThis.fetch;
}

/**
 * A typed client: `client.POST('/v1/jobs', { body })`, `client.GET('/v1/account')`, … Throws at once
 * without an absolute `baseUrl` (else every call would fail later, with a URL parser's message).
 */
export function createClient(options: ClientOptions): DroplineClient {
  const baseUrl = options?.baseUrl;
  if (typeof baseUrl !== 'string' || !URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol)) {
    throw new TypeError(
      `createClient needs baseUrl, the address Dropline runs at, e.g. createClient({ baseUrl: 'https://dropline.example.com', apiKey }); got ${baseUrl === undefined ? 'none' : JSON.stringify(baseUrl)}.`,
    );
  }
  return createDroplineClient({ baseUrl, token: options.apiKey, fetch: options.fetch });
}

const FINAL_STATES: readonly Job['state'][] = ['completed', 'failed', 'canceled'];

export interface WaitOptions {
  /** Between polls; default 1000 ms (and at least 1 s after a 429). */
  intervalMs?: number;
  /** Give up (throw) after this long; default 10 minutes. */
  timeoutMs?: number;
}

/** Polls a job until it is completed, failed or canceled, and returns it (check `job.state`). */
export async function waitForJob(client: DroplineClient, jobId: string, options: WaitOptions = {}): Promise<Job> {
  const interval = options.intervalMs ?? 1000;
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  for (;;) {
    const { data, error, response } = await client.GET('/v1/jobs/{id}', { params: { path: { id: jobId } } });
    if (data && FINAL_STATES.includes(data.job.state)) return data.job;
    if (!data && response.status !== 429) throw new Error(`GET /v1/jobs/${jobId}: ${response.status} ${error?.error.code ?? ''}`.trim());
    if (Date.now() > deadline) throw new Error(`Job ${jobId} is still ${data?.job.state ?? 'unknown'} after ${options.timeoutMs ?? 600_000} ms`);
    await new Promise((r) => setTimeout(r, response.status === 429 ? Math.max(interval, 1000) : interval));
  }
}

export interface CreateAndWaitOptions {
  /** Seconds the server may hold each request until the job ends (`Prefer: wait`, 1–60); default 30. */
  waitSeconds?: number;
  /** The job's Idempotency-Key; default a fresh UUID, so the call is safe to retry as a whole. */
  idempotencyKey?: string;
  /** Give up (throw) after this long; default 10 minutes. */
  timeoutMs?: number;
  /** When the server does not wait (no `Preference-Applied`): the first poll interval, doubling up to `maxPollIntervalMs`; default 250 ms and 5 s. */
  pollIntervalMs?: number;
  maxPollIntervalMs?: number;
}

/**
 * Submits a job — one tool, named `steps` (each typed by its tool) or a saved `template` — and
 * returns it once it is completed, failed or canceled (check `job.state`), in
 * one round trip when it ends within `waitSeconds`: the POST asks `Prefer: wait=N` and a job that
 * ended in time comes back as `200`. A job still in flight is then awaited with `GET
 * /v1/jobs/{id}` and the same preference (a long poll); a server that does not honour it (no
 * `Preference-Applied` on its answer) is polled with backoff instead. A refusal throws.
 */
export async function createJobAndWait(client: DroplineClient, body: JobBody, options: CreateAndWaitOptions = {}): Promise<Job> {
  const waitSeconds = Math.min(60, Math.max(1, Math.round(options.waitSeconds ?? 30)));
  const deadline = Date.now() + (options.timeoutMs ?? 10 * 60_000);
  const headers = { Prefer: `wait=${waitSeconds}`, 'Idempotency-Key': options.idempotencyKey ?? crypto.randomUUID() };
  const { data, error, response } = await client.POST('/v1/jobs', { body, headers });
  if (!data) throw new Error(`POST /v1/jobs: ${response.status} ${error?.error.code ?? ''} ${error?.error.message ?? ''}`.trim());
  if ('job' in data) return data.job;
  // Only a dryRun request is answered with a quote, and this one is not.
  if ('quote' in data) throw new Error('POST /v1/jobs answered a quote to a submission');
  let interval = options.pollIntervalMs ?? 250;
  let serverWaits = response.headers.has('preference-applied');
  for (;;) {
    if (!serverWaits) {
      await sleep(Math.min(interval, Math.max(0, deadline - Date.now())));
      interval = Math.min(interval * 2, options.maxPollIntervalMs ?? 5000);
    }
    const polled = await client.GET('/v1/jobs/{id}', { params: { path: { id: data.id } }, headers: { Prefer: `wait=${waitSeconds}` } });
    if (polled.data && FINAL_STATES.includes(polled.data.job.state)) return polled.data.job;
    if (!polled.data && polled.response.status !== 429) throw new Error(`GET /v1/jobs/${data.id}: ${polled.response.status} ${polled.error?.error.code ?? ''}`.trim());
    if (Date.now() >= deadline) throw new Error(`Job ${data.id} is still ${polled.data?.job.state ?? 'unknown'} after ${options.timeoutMs ?? 600_000} ms`);
    serverWaits = polled.response.headers.has('preference-applied');
    if (polled.response.status === 429) await sleep(Number(polled.response.headers.get('retry-after') ?? 1) * 1000);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A file to upload: a Blob/File, or bytes with a name. */
export type UploadInput = Blob | { data: Uint8Array | ArrayBuffer; name: string; type?: string };

/**
 * Uploads a file for use as a job's `input.fileId` (kept 24 h). Multipart in one request; the
 * resumable (tus) route is for files larger than a single request should carry.
 */
export async function uploadFile(client: DroplineClient, file: UploadInput, name?: string): Promise<Upload> {
  const form = new FormData();
  if (file instanceof Blob) form.append('file', file, name ?? (file as File).name ?? 'file');
  else form.append('file', new Blob([file.data instanceof Uint8Array ? new Uint8Array(file.data) : file.data], { type: file.type ?? 'application/octet-stream' }), file.name);
  const { data, error, response } = await client.POST('/v1/uploads', {
    body: {} as never,
    bodySerializer: () => form,
  });
  if (!data) throw new Error(`POST /v1/uploads: ${response.status} ${error?.error.code ?? ''} ${error?.error.message ?? ''}`.trim());
  return data.upload;
}

export type WebhookEvent = SubmissionWebhookEvent | JobWebhookEvent;

/**
 * Checks a webhook's Standard Webhooks signature with the account's secret (`whsec_…`, from
 * `GET /v1/account` with `webhooks:read`) and returns the event; throws if it is not genuine or
 * older than 5 minutes. `rawBody` must be the body exactly as received.
 */
export function verifyWebhook(secret: string, rawBody: string, headers: Record<string, string | string[] | undefined>): WebhookEvent {
  const flat = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), Array.isArray(v) ? v.join(', ') : (v ?? '')]));
  return new Webhook(secret).verify(rawBody, flat) as WebhookEvent;
}
