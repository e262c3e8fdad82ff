import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import sharp from 'sharp';
import { assertContract } from './contract-check';
import type { Tenant, TestApp } from './test-app';

/** Helpers for the public intake suites: real files, real multipart, and a look at STORAGE_DIR. */

export const MiB = 1024 * 1024;

/** A fresh STORAGE_DIR for one suite. */
export function tempStorageDir(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `dropline-e2e-${name}-`));
}

export function removeDir(dir: string | undefined): Promise<void> {
  return dir ? rm(dir, { recursive: true, force: true }) : Promise.resolve();
}

/** A real PNG, decoded and encoded by sharp. */
export function png(width = 16, height = 12): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } })
    .png()
    .toBuffer();
}

/**
 * Every regular file under `dir`, recursively, as paths relative to it. The `.tmp` folder itself
 * may exist (the driver creates it), but a file in it is as stray as any other.
 */
export async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .sort();
}

export interface FilePart {
  data: Buffer | string;
  name: string;
  type?: string;
}

/** A multipart form: the text fields first, then (if given) one `file` part, as the contract asks. */
export function form(fields: Record<string, string>, file?: FilePart, fileField = 'file'): FormData {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  if (file) {
    const data = typeof file.data === 'string' ? file.data : new Uint8Array(file.data);
    fd.append(fileField, new Blob([data], { type: file.type ?? 'application/octet-stream' }), file.name);
  }
  return fd;
}

export interface Answer {
  /** null when the server cut the connection before an answer could be read. */
  status: number | null;
  body: any;
  headers?: Headers;
  error?: unknown;
  ms: number;
}

/** POSTs to the public intake; a connection reset is reported as `status: null`, never thrown. */
export function send(t: TestApp, slug: string, init: RequestInit & { duplex?: 'half' }): Promise<Answer> {
  return postForm(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, init);
}

/** POSTs a (multipart) body and decodes the answer; a cut connection is `status: null`, never thrown. */
export async function postForm(url: string, init: RequestInit & { duplex?: 'half' }): Promise<Answer> {
  const started = Date.now();
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, { method: 'POST', ...init });
    text = await res.text();
  } catch (error) {
    return { status: null, body: undefined, error, ms: Date.now() - started };
  }
  // An answer that came is checked against the contract (a ContractViolation fails the test).
  assertContract(init.method ?? 'POST', url, { status: res.status, headers: res.headers, text });
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, body, headers: res.headers, ms: Date.now() - started };
}

/**
 * POSTs a stream with node:http, which writes each chunk to the socket as it is (undici's fetch
 * copies every chunk of a stream body into a new buffer, which inflates this process's RSS by
 * about the size of the upload, hiding what the server itself holds).
 */
export async function sendStream(t: TestApp, slug: string, body: Readable, contentType: string): Promise<Answer> {
  const url = new URL(`${t.baseUrl}/v1/public/drops/${slug}/submissions`);
  const answer = await streamRequest(url, body, contentType);
  if (answer.status !== null) assertContract('POST', url.href, { status: answer.status, headers: answer.nodeHeaders, text: answer.text });
  return { status: answer.status, body: answer.body, error: answer.error, ms: answer.ms };
}

function streamRequest(url: URL, body: Readable, contentType: string): Promise<Answer & { nodeHeaders: Record<string, string | string[] | undefined>; text?: string }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': contentType } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: any = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode ?? null, body: parsed, nodeHeaders: res.headers, text, ms: Date.now() - started });
      });
      res.on('error', (error) => resolve({ status: null, body: undefined, nodeHeaders: {}, error, ms: Date.now() - started }));
    });
    req.on('error', (error) => resolve({ status: null, body: undefined, nodeHeaders: {}, error, ms: Date.now() - started }));
    pipeline(body, req).catch(() => undefined); // a refused upload ends in 'error' above or an answer
  });
}

export function submit(t: TestApp, slug: string, fd: FormData): Promise<Answer> {
  return send(t, slug, { body: fd });
}

/**
 * A multipart body produced on the fly, never held in memory: the fields, then a `file` part
 * whose `size` bytes come from `chunks` (a pseudo-random 64 KiB block repeated, after `head`).
 */
export function streamedForm(opts: { fields?: Record<string, string>; fileName: string; fileType?: string; size: number; head?: Buffer; chunkSize?: number }): {
  body: Readable;
  contentType: string;
  totalBytes: number;
  produced: () => number;
} {
  const boundary = `----dropline${randomBytes(8).toString('hex')}`;
  let preamble = '';
  for (const [k, v] of Object.entries(opts.fields ?? {})) {
    preamble += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`;
  }
  preamble += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${opts.fileName}"\r\n`;
  preamble += `Content-Type: ${opts.fileType ?? 'application/octet-stream'}\r\n\r\n`;
  const trailer = `\r\n--${boundary}--\r\n`;
  const head = opts.head ?? Buffer.alloc(0);
  const block = randomBytes(opts.chunkSize ?? 64 * 1024);
  const size = opts.size;
  let sent = 0;
  function* generate(): Generator<Buffer> {
    yield Buffer.from(preamble);
    if (head.length > 0) {
      yield head.subarray(0, Math.min(head.length, size));
      sent = Math.min(head.length, size);
    }
    while (sent < size) {
      const n = Math.min(block.length, size - sent);
      yield n === block.length ? block : block.subarray(0, n);
      sent += n;
    }
    yield Buffer.from(trailer);
  }
  return {
    body: Readable.from(generate(), { objectMode: false }),
    contentType: `multipart/form-data; boundary=${boundary}`,
    totalBytes: Buffer.byteLength(preamble) + size + Buffer.byteLength(trailer),
    /** File bytes handed to the request so far (the reader pulled them). */
    produced: () => sent,
  };
}

/**
 * A multipart body that sends its preamble and `sentBytes` of a file of `declaredSize`, then
 * stalls without ending: the sender of a big file who goes away mid-upload.
 */
export function stallingForm(opts: { fileName: string; declaredSize: number; sentBytes: number }): { body: Readable; contentType: string } {
  const { body, contentType } = streamedForm({ fileName: opts.fileName, size: opts.declaredSize });
  let sent = 0;
  const pull = (): void => {
    if (sent >= opts.sentBytes) return; // never ends: no more pushes, no null
    const chunk = body.read() as Buffer | null;
    if (chunk === null) {
      body.once('readable', pull);
      return;
    }
    sent += chunk.length;
    stalling.push(chunk);
  };
  const stalling: Readable = new Readable({
    read: pull,
    destroy(err, callback) {
      body.destroy();
      callback(err);
    },
  });
  return { body: stalling, contentType };
}

/** The owner's view: the drop's counters and every submission id (all pages). */
export async function ownerSnapshot(owner: Tenant, slug: string): Promise<{ submissionCount: number; totalBytes: number; ids: string[] }> {
  const drop = await owner.client.GET('/v1/drops/{slug}', { params: { path: { slug } } });
  if (!drop.data) throw new Error(`drop ${slug}: HTTP ${drop.response.status}`);
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await owner.client.GET('/v1/drops/{slug}/submissions', { params: { path: { slug }, query: { cursor } } });
    if (!page.data) throw new Error(`submissions of ${slug}: HTTP ${page.response.status}`);
    ids.push(...page.data.submissions.map((s) => s.id));
    cursor = page.data.nextCursor ?? undefined;
  } while (cursor);
  return { submissionCount: drop.data.drop.submissionCount, totalBytes: drop.data.drop.totalBytes, ids };
}

/** Polls `probe` until it returns a truthy value or `timeoutMs` passes; returns the last value. */
export async function eventually<T>(probe: () => Promise<T>, timeoutMs = 5000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
