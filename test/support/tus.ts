/**
 * A tus 1.0 client that knows only the protocol (plain fetch, none of our code): what a third-party
 * client does on the wire.
 */
export interface TusAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export function tusMetadata(fields: Record<string, string>): string {
  return Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
}

export async function tus(url: string, method: string, headers: Record<string, string> = {}, body?: Buffer): Promise<TusAnswer> {
  const res = await fetch(url, {
    method,
    headers: { 'Tus-Resumable': '1.0.0', ...headers, ...(body ? { 'Content-Type': 'application/offset+octet-stream' } : {}) },
    body: body ? new Uint8Array(body) : undefined,
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Creates an upload; returns the answer and the upload URL. */
export async function tusCreate(collection: string, length: number, metadata: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await tus(collection, 'POST', { 'Upload-Length': String(length), 'Upload-Metadata': tusMetadata(metadata), ...headers });
  return { ...res, location: res.headers.get('location') ?? '' };
}

export function tusPatch(url: string, offset: number, chunk: Buffer, headers: Record<string, string> = {}) {
  return tus(url, 'PATCH', { 'Upload-Offset': String(offset), ...headers }, chunk);
}

/** What the official client saw while uploading: every response's status, and how it ended. */
export interface TusJsRun {
  statuses: number[];
  /** `Dropline-Submission-Id` of the response that completed the upload, if any. */
  submissionId?: string;
  url?: string;
  error?: Error;
}

/**
 * Uploads `file` with the official tus-js-client (Node build), its default retries and the given
 * chunk size; resolves once it succeeds or gives up (never rejects: the run says which).
 */
export async function tusJsUpload(
  endpoint: string,
  file: Buffer,
  options: { chunkSize: number; metadata: Record<string, string>; headers?: Record<string, string> },
): Promise<TusJsRun> {
  const { Upload } = await import('tus-js-client');
  const run: TusJsRun = { statuses: [] };
  await new Promise<void>((resolve) => {
    const upload = new Upload(file, {
      endpoint,
      chunkSize: options.chunkSize,
      metadata: options.metadata,
      headers: options.headers,
      onAfterResponse: (_req, res) => {
        run.statuses.push(res.getStatus());
        run.submissionId ??= res.getHeader('Dropline-Submission-Id') || undefined;
      },
      onSuccess: () => {
        run.url = upload.url ?? undefined;
        resolve();
      },
      onError: (error) => {
        run.error = error;
        resolve();
      },
    });
    upload.start();
  });
  return run;
}
