// Preconditions for the error responses of the contract: each Dredd transaction with a status of
// 300 or more is turned into a request that deterministically gets that status (a paused drop, a
// revoked key, a missing scope, a finished job to cancel, …), and remembers the error code it must
// carry (checked in hooks-contract.js). What cannot be provoked from outside is in SKIPPED, with
// the reason. Used by hooks.js's beforeEach; works the same on /v1 and /api/v1.
const { randomUUID } = require('node:crypto');
const { readFile, writeFile } = require('node:fs/promises');
const { join } = require('node:path');
const { Client } = require('pg');
const { multipart, usePath, baseUrl } = require('./support');

const keys = JSON.parse(process.env.DREDD_KEYS ?? '{}');

/** Transactions left skipped, by name, and why. Everything else with a status ≥ 300 is provoked. */
const SKIPPED = {
  '/readyz > Readiness probe > 503 > application/json': 'needs Postgres or Redis down; test/faults/postgres-outage and redis-outage provoke it',
  '/v1/jobs > Submit a job > 500 > application/json':
    'enqueue_failed needs Redis to refuse the enqueue after the commit; test/e2e/jobs/enqueue-failure and test/faults/redis-outage provoke it',
  '/api/v1/jobs > Submit a job > 500 > application/json':
    'enqueue_failed needs Redis to refuse the enqueue after the commit; test/e2e/jobs/enqueue-failure and test/faults/redis-outage provoke it',
  '/v1/jobs > Submit a job > 503 > application/json':
    'tool_unavailable needs a program missing on the server, which the other transactions need; test/e2e/tools/tool-availability provokes it (FFMPEG_PATH naming no program)',
  '/api/v1/jobs > Submit a job > 503 > application/json':
    'tool_unavailable needs a program missing on the server, which the other transactions need; test/e2e/tools/tool-availability provokes it (FFMPEG_PATH naming no program)',
  '/v1/public/drops/{slug}/tus/{id} > Send the next bytes of a tus upload > 423 > application/json':
    'upload_locked needs another request holding the upload for 20 s; test/e2e/process/multi-process provokes it across two API processes',
  '/v1/files/{key} > Fetch a file through a signed URL > 410 > application/json':
    'output_expired needs an output purged by retention; test/e2e/retention/retention provokes it (OUTPUT_RETENTION=5s)',
  '/v1/uploads > Upload a file to use as job input > 413 > application/json':
    'needs a body over the smallest plan limit (25 MB), cut off while Dredd still sends it (a reset, not an answer); test/e2e/uploads/uploads covers it',
};

// Dredd's HTTP library (request) refuses any HEAD it is given: Dredd always passes a body (an
// empty Buffer, which request counts as one) and request throws "HTTP HEAD requests MUST NOT include
// a request body". The tus HEADs, success and errors, are covered by test/e2e/uploads/tus.e2e-spec.ts
// (the 429 of /v1/uploads/tus/{id} by test/e2e/auth/auth-failures.e2e-spec.ts).
const TUS_HEADS = {
  '/v1/public/drops/{slug}/tus/{id}': [200, 404, 410, 412, 423, 429],
  '/v1/uploads/tus/{id}': [200, 401, 404, 412, 429],
};
for (const status of [200, 304, 400, 403, 404, 410]) {
  SKIPPED[`/v1/files/{key} > The headers of a file behind a signed URL > ${status}`] = 'Dredd cannot send HEAD; test/e2e/contract/newcomer-trips covers it';
}
for (const [template, statuses] of Object.entries(TUS_HEADS)) {
  for (const status of statuses) SKIPPED[`${template} > How much of a tus upload the server has > ${status}`] = 'Dredd cannot send HEAD; test/e2e/uploads/tus covers it';
}

// ---- HTTP and database helpers ------------------------------------------------------------

async function call(method, path, { token = keys.main, body, headers = {} } = {}) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined && typeof body !== 'string' ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {}
  return { status: res.status, headers: res.headers, body: json ?? text };
}

async function ok(method, path, options) {
  const res = await call(method, path, options);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function sql(text, params) {
  const db = new Client({ connectionString: process.env.DREDD_DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, params)).rows;
  } finally {
    await db.end();
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const once = (fn) => {
  let p;
  return () => (p ??= fn());
};
const unique = (prefix) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

async function send(slug, file, fields = { senderName: 'Dredd' }) {
  const form = multipart(fields, file);
  return call('POST', `/v1/public/drops/${slug}/submissions`, { token: null, body: form.body, headers: { 'content-type': form.contentType } });
}

// ---- Fixtures, made on first use ------------------------------------------------------------

const textFile = { name: 'notes.txt', type: 'text/plain', content: 'provoked by Dredd' };

const signedUrlText = once(async () => {
  const { slug, submission } = await fx.drop();
  return (await ok('GET', `/v1/drops/${slug}/submissions/${submission}/download`)).url;
});

const fx = {
  /** A drop with a 1 MB file limit and one text submission (no processed output). */
  drop: once(async () => {
    const slug = unique('dredd-err');
    await ok('POST', '/v1/drops', { body: { name: 'Dredd errors', slug, maxFileSizeMB: 1 } });
    const sent = await send(slug, textFile);
    if (sent.status !== 201) throw new Error(`intake: ${sent.status} ${JSON.stringify(sent.body)}`);
    return { slug, submission: sent.body.submission.id };
  }),
  pausedDrop: once(async () => {
    const slug = unique('dredd-paused');
    await ok('POST', '/v1/drops', { body: { name: 'Paused', slug } });
    await ok('PATCH', `/v1/drops/${slug}`, { body: { isActive: false } });
    return slug;
  }),
  /** The API refuses an expiry in the past, so the clock of this drop is moved in the database. */
  expiredDrop: once(async () => {
    const slug = unique('dredd-expired');
    await ok('POST', '/v1/drops', { body: { name: 'Expired', slug, expiresAt: new Date(Date.now() + 86_400_000).toISOString() } });
    await sql(`UPDATE drops SET expires_at = now() - interval '1 hour' WHERE slug = $1`, [slug]);
    return slug;
  }),
  /** A drop with a password (issue 22): 401 without it, 403 with another. */
  passwordDrop: once(async () => {
    const slug = unique('dredd-locked');
    await ok('POST', '/v1/drops', { body: { name: 'Locked', slug, password: 'dredd password' } });
    return slug;
  }),
  /** A drop at its maxSubmissions: 409 drop_full. */
  fullDrop: once(async () => {
    const slug = unique('dredd-full');
    await ok('POST', '/v1/drops', { body: { name: 'Full', slug, maxSubmissions: 1 } });
    const sent = await send(slug, textFile);
    if (sent.status !== 201) throw new Error(`intake: ${sent.status} ${JSON.stringify(sent.body)}`);
    return slug;
  }),
  /** A drop taking only PDFs by name. */
  pdfOnlyDrop: once(async () => {
    const slug = unique('dredd-pdf');
    await ok('POST', '/v1/drops', { body: { name: 'PDFs only', slug, allowedExtensions: ['pdf'] } });
    return slug;
  }),
  imageOnlyDrop: once(async () => {
    const slug = unique('dredd-images');
    await ok('POST', '/v1/drops', { body: { name: 'Images only', slug, allowedKinds: 'image' } });
    return slug;
  }),
  /** A template of another account: a job of the main key naming it is 404 not_found. */
  foreignTemplate: once(async () => {
    const steps = { small: { tool: 'image-resize', options: { width: 10 } } };
    return (await ok('POST', '/v1/templates', { token: keys.otherAccount, body: { name: 'Not yours', steps } })).template.id;
  }),
  signedUrl: async () => new URL(await signedUrlText()),
  /** A validly signed URL whose file is gone (its submission was deleted). */
  goneUrl: once(async () => {
    const { slug } = await fx.drop();
    const sent = await send(slug, { ...textFile, name: 'gone.txt' });
    const { url } = await ok('GET', `/v1/drops/${slug}/submissions/${sent.body.submission.id}/download`);
    await ok('DELETE', `/v1/drops/${slug}/submissions/${sent.body.submission.id}`);
    return new URL(url);
  }),
};

/** A job of the main key that has finished (failed fast: nothing listens on 127.0.0.1:9). */
async function finishedJob(prefix) {
  const { id } = await ok('POST', `${prefix}/jobs`, { body: { tool: 'image-resize', input: { url: 'http://127.0.0.1:9/none.png' }, options: { width: 10 } } });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { job } = await ok('GET', `${prefix}/jobs/${id}`);
    if (['completed', 'failed', 'canceled'].includes(job.state)) return id;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
    await sleep(200);
  }
}

/**
 * Spends the key's one-second window: waits until a request opens a fresh window (so the window
 * has most of its second left), then sends more requests than the plan allows at once.
 */
async function exhaustKey(token) {
  for (let i = 0; i < 100; i++) {
    const res = await call('GET', '/v1/account', { token });
    const limit = Number(res.headers.get('ratelimit-limit'));
    if (res.status === 200 && Number(res.headers.get('ratelimit-remaining')) === limit - 1) {
      await Promise.all(Array.from({ length: limit + 2 }, () => call('GET', '/v1/account', { token })));
      return;
    }
    await sleep(50);
  }
  throw new Error('could not find a fresh rate-limit window');
}

let fakeClient = 0;
/** Spends the per-IP budget of a made-up client address (TRUST_PROXY believes 127.0.0.1). */
async function exhaustAddress(slug) {
  const ip = `198.51.100.${++fakeClient}`;
  // In bursts past the server's limit (run-dredd.js sets it), so a slow machine cannot spread them over several one-second windows.
  const size = Number(process.env.PUBLIC_RATE_LIMIT ?? 10) + 20;
  for (let burst = 0; burst < 5; burst++) {
    const answers = await Promise.all(Array.from({ length: size }, () => call('GET', `/v1/public/drops/${slug}`, { token: null, headers: { 'x-forwarded-for': ip } })));
    if (answers.some((res) => res.status === 429)) return ip;
  }
  throw new Error(`no 429 for ${ip} after 5 bursts of ${size} requests`);
}

// ---- tus and the submissions archive ---------------------------------------------------------

const TUS_OPS = new Set(['createDropTusUpload', 'appendDropTusUpload', 'deleteDropTusUpload', 'createTusUpload', 'appendTusUpload', 'deleteTusUpload']);
const TUS_BYTES = 'hello tus';
let fakeTusClient = 0;
const b64 = (text) => Buffer.from(text).toString('base64');

/** A real, incomplete tus upload of `length` bytes; returns the path of its URL. */
async function tusUpload(collection, { token = null, length = TUS_BYTES.length, client } = {}) {
  const res = await fetch(baseUrl + collection, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(length),
      'upload-metadata': `filename ${b64('notes.txt')}`,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(client ? { 'x-forwarded-for': client } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`tus create ${collection}: ${res.status} ${await res.text()}`);
  return new URL(res.headers.get('location')).pathname;
}

/** Moves a stored upload's creation back a year, so tus finds it expired (FileStore keeps it in <id>.json). */
async function expireUpload(path) {
  const file = join(process.env.STORAGE_DIR, '.tus', `${path.split('/').pop()}.json`);
  const info = JSON.parse(await readFile(file, 'utf8'));
  info.creation_date = new Date(Date.now() - 365 * 86_400_000).toISOString();
  await writeFile(file, JSON.stringify(info));
}

/**
 * The tus operations' own errors: a well-formed tus request (real upload, Tus-Resumable, offset,
 * body) with exactly one thing wrong. Returns the error code, or null when the generic provocation
 * (401, a missing scope, 429 of a key) applies unchanged.
 */
async function provokeTus(transaction, id, status, set) {
  const isDrop = id.includes('Drop');
  const token = isDrop ? null : keys.main;
  const collection = async (slug) => (isDrop ? `/v1/public/drops/${slug ?? (await fx.drop()).slug}/tus` : '/v1/uploads/tus');
  const auth = () => set.auth(token);
  if (!isDrop && (status === 401 || status === 403 || status === 429)) return null;
  auth();
  setHeader(transaction, 'Tus-Resumable', '1.0.0');
  // The public tus requests come from a made-up client address of their own (TRUST_PROXY believes
  // 127.0.0.1), so they leave 127.0.0.1's per-second budget to the public transactions after them.
  const client = isDrop ? `203.0.113.${(++fakeTusClient % 250) + 1}` : undefined;
  if (client) setHeader(transaction, 'X-Forwarded-For', client);
  const missingId = isDrop ? 'obj_nosuchupload0000' : 'upl_nosuchupload0000';

  if (id === 'createDropTusUpload' || id === 'createTusUpload') {
    setRawBody(transaction, undefined, '');
    setHeader(transaction, 'Upload-Length', String(TUS_BYTES.length));
    setHeader(transaction, 'Upload-Metadata', `filename ${b64('notes.txt')}`);
    const drop = async (slug) => usePath(transaction, await collection(slug));
    switch (status) {
      case 400:
        await drop();
        if (isDrop) {
          setHeader(transaction, 'Upload-Metadata', `filetype ${b64('text/plain')}`);
        } else {
          setHeader(transaction, 'Upload-Length', undefined);
          setHeader(transaction, 'Upload-Defer-Length', '1');
        }
        return 'validation_failed';
      case 401:
        await drop(await fx.passwordDrop());
        return 'password_required';
      case 403:
        await drop(await fx.pausedDrop());
        return 'drop_paused';
      case 404:
        await drop('dredd-no-such-drop');
        return 'not_found';
      case 409:
        await drop(await fx.fullDrop());
        return 'drop_full';
      case 415:
        await drop(await fx.pdfOnlyDrop());
        return 'kind_not_allowed';
      case 410:
        await drop(await fx.expiredDrop());
        return 'drop_expired';
      case 412:
        await drop();
        setHeader(transaction, 'Tus-Resumable', undefined);
        return 'tus_version_unsupported';
      case 413:
        await drop();
        setHeader(transaction, 'Upload-Length', String(isDrop ? 2 * 1024 * 1024 : 10 * 1024 ** 3));
        return 'file_too_large';
      case 429: {
        const { slug } = await fx.drop();
        await drop(slug);
        setHeader(transaction, 'X-Forwarded-For', await exhaustAddress(slug));
        return 'rate_limited';
      }
    }
    return undefined;
  }

  // PATCH and DELETE of one upload.
  const upload = async (options) => usePath(transaction, await tusUpload(await collection(), { token, client, ...options }));
  if (transaction.request.method === 'PATCH') {
    setHeader(transaction, 'Upload-Offset', '0');
    setRawBody(transaction, 'application/offset+octet-stream', TUS_BYTES.slice(0, 5));
  } else {
    setRawBody(transaction, undefined, '');
  }
  switch (status) {
    case 400:
      // A malformed Upload-Offset: the contract's header check refuses it on PATCH (which declares
      // the header); on DELETE, which does not, tus's own header validation does.
      await upload();
      setHeader(transaction, 'Upload-Offset', 'five');
      return transaction.request.method === 'PATCH' ? 'validation_failed' : 'invalid_tus_request';
    case 403:
      // A drop that no longer takes bytes (only PATCH of a drop upload declares a 403 of its own).
      if (!isDrop) break;
      usePath(transaction, `${await collection(await fx.pausedDrop())}/${missingId}`);
      return 'drop_paused';
    case 404:
      usePath(transaction, `${await collection()}/${missingId}`);
      return 'not_found';
    case 409:
      await upload();
      setHeader(transaction, 'Upload-Offset', '3');
      return 'offset_mismatch';
    case 410:
      if (isDrop) {
        usePath(transaction, `${await collection(await fx.expiredDrop())}/${missingId}`);
        return 'drop_expired';
      }
      await upload();
      await expireUpload(transaction.fullPath);
      return 'upload_expired';
    case 412:
      await upload();
      setHeader(transaction, 'Tus-Resumable', undefined);
      return 'tus_version_unsupported';
    case 413:
      await upload({ length: 4 });
      return 'file_too_large';
    case 415: {
      const slug = await fx.imageOnlyDrop();
      usePath(transaction, await tusUpload(await collection(slug), { client }));
      return 'kind_not_allowed';
    }
    case 429: {
      // An upload the drop admitted goes on past the address's request limit (docs/decisions.md):
      // what is counted, hence refused from an exhausted address, is an id the drop never admitted.
      if (!isDrop) break;
      const { slug } = await fx.drop();
      usePath(transaction, `${await collection(slug)}/${missingId}`);
      setHeader(transaction, 'X-Forwarded-For', await exhaustAddress(slug));
      return 'rate_limited';
    }
  }
  throw new Error(`no way to provoke ${status} for ${id}`);
}

// ---- Shaping the request --------------------------------------------------------------------

function setHeader(transaction, name, value) {
  for (const h of Object.keys(transaction.request.headers)) {
    if (h.toLowerCase() === name.toLowerCase()) delete transaction.request.headers[h];
  }
  if (value !== undefined) transaction.request.headers[name] = value;
}

function setRawBody(transaction, contentType, body) {
  setHeader(transaction, 'Content-Length', undefined);
  setHeader(transaction, 'Content-Type', contentType);
  transaction.request.body = body;
}

const setJson = (transaction, value) => setRawBody(transaction, 'application/json', typeof value === 'string' ? value : JSON.stringify(value));
const setForm = (transaction, form) => setRawBody(transaction, form.contentType, form.body);

/** The template of the transaction's operation with its variables filled in. */
function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => values[name]);
}

const JSON_BODY_OPS = new Set(['createDrop', 'updateDrop', 'updateSubmission', 'createJob', 'apiCreateJob', 'createTemplate', 'updateTemplate']);
const INVALID_BODIES = {
  createDrop: { name: '' },
  updateDrop: { isActive: 'yes' },
  updateSubmission: { isRead: 'yes' },
  createJob: { tool: 42, input: {} },
  apiCreateJob: { tool: 'image-resize', input: { url: 'http://127.0.0.1:9/a.png' }, options: { width: 'wide' } },
  createTemplate: { name: 'No steps' },
  updateTemplate: { name: '' },
};
const INVALID_QUERIES = {
  listDrops: '?limit=0',
  listSubmissions: '?cursor=bm90LWEtY3Vyc29y', // base64url of "not-a-cursor": not one this API issued
  listDropEvents: '?type=drop.exploded',
  listJobs: '?state=exploded',
  apiListJobs: '?cursor=bm90LWEtY3Vyc29y',
  listWebhookDeliveries: '?status=lost',
  listTemplates: '?limit=0',
};
let unauthorizedTurn = 0;

/**
 * Rewrites `transaction` so the server must answer its expected status; returns the error code
 * the answer must carry. `op` is the operation (contract-check.ts) and `template` its path.
 */
async function provoke(transaction, op) {
  const status = Number(transaction.expected.statusCode);
  const { operationId, template } = op;
  const id = operationId;
  const prefix = template.startsWith('/api/v1') ? '/api/v1' : '/v1';
  const path = (values) => usePath(transaction, fill(template, values));
  const examplePath = () => transaction.fullPath;
  const auth = (token) => setHeader(transaction, 'Authorization', token ? `Bearer ${token}` : undefined);
  const scope = op.operation['x-required-scope'];
  // Dredd sends the optional Idempotency-Key empty, which is a 400 of its own: give a fresh key.
  if (id === 'createJob' || id === 'apiCreateJob') setHeader(transaction, 'Idempotency-Key', randomUUID());
  if (TUS_OPS.has(id)) {
    const code = await provokeTus(transaction, id, status, { auth });
    if (code !== null) return code;
  }

  switch (status) {
    case 401: {
      if (id === 'getPublicDrop' || id === 'createPublicSubmission') {
        path({ slug: await fx.passwordDrop() });
        if (id === 'createPublicSubmission') setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
        return 'password_required';
      }
      const ways = [
        [null, 'unauthorized'],
        [keys.revoked, 'revoked'],
        [keys.expired, 'expired'],
        ['dl_live_0000000000000000000000000000dead', 'invalid_key'],
      ];
      const [token, code] = ways[unauthorizedTurn++ % ways.length];
      auth(token);
      return code;
    }
    case 304: {
      // A conditional GET with the ETag the file was just served with.
      const url = await fx.signedUrl();
      const first = await fetch(url);
      await first.arrayBuffer();
      const etag = first.headers.get('etag');
      if (!etag) throw new Error('downloadFile sent no ETag: a 304 cannot be provoked');
      usePath(transaction, url.pathname + url.search);
      setHeader(transaction, 'Range', undefined);
      setHeader(transaction, 'If-None-Match', etag);
      return undefined;
    }
    case 402:
      auth(keys.noCredits);
      return 'insufficient_credits';
    case 403:
      if (id === 'getPublicDrop') {
        path({ slug: await fx.passwordDrop() });
        setHeader(transaction, 'Drop-Password', 'not the password');
        return 'wrong_password';
      }
      if (id === 'createPublicSubmission') {
        path({ slug: await fx.pausedDrop() });
        setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
        return 'drop_paused';
      }
      if (id === 'downloadFile') {
        const url = await fx.signedUrl();
        const sig = url.searchParams.get('sig');
        url.searchParams.set('sig', sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA'));
        usePath(transaction, url.pathname + url.search);
        return 'invalid_signature';
      }
      if (scope && scope !== 'webhooks:read') {
        auth(keys.webhooksReadOnly);
        return 'insufficient_scope';
      }
      auth(keys.ipNotAllowed);
      return 'ip_not_allowed';
    case 429:
      if (!op.operation.security || op.operation.security.length > 0) {
        auth(keys.free);
        await exhaustKey(keys.free);
        return 'rate_limited';
      }
      {
        const { slug } = await fx.drop();
        path({ slug });
        if (id === 'createPublicSubmission') setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
        setHeader(transaction, 'X-Forwarded-For', await exhaustAddress(slug));
      }
      return id === 'getDropPage' ? undefined : 'rate_limited'; // the page's 429 is HTML
    case 400:
      if (id === 'createJob') {
        // The pipeline form's own 400 (the contract's PipelineCycle example); apiCreateJob keeps validation_failed.
        const step = (input) => ({ tool: 'image-resize', input, options: { width: 10 } });
        setJson(transaction, { input: { url: 'http://127.0.0.1:9/a.png' }, steps: { a: step('b'), b: step('a') } });
        return 'invalid_pipeline';
      }
      if (JSON_BODY_OPS.has(id)) {
        setJson(transaction, INVALID_BODIES[id]);
        return 'validation_failed';
      }
      if (INVALID_QUERIES[id]) {
        const base = id === 'listSubmissions' || id === 'listDropEvents' ? fill(template, { slug: (await fx.drop()).slug }) : template;
        usePath(transaction, base + INVALID_QUERIES[id]);
        return 'validation_failed';
      }
      if (id === 'downloadSubmissionsArchive') {
        usePath(transaction, `${fill(template, { slug: (await fx.drop()).slug })}?isRead=maybe`);
        return 'validation_failed';
      }
      if (id === 'getSubmissionDownload') {
        const { slug, submission } = await fx.drop();
        usePath(transaction, `${fill(template, { slug, id: submission })}?processed=maybe`);
        return 'validation_failed';
      }
      if (id === 'downloadFile') {
        const url = await fx.signedUrl();
        url.searchParams.delete('sig');
        usePath(transaction, url.pathname + url.search);
        return 'validation_failed';
      }
      if (id === 'createUpload' || id === 'createPublicSubmission') {
        // A form without its required file part.
        if (id === 'createPublicSubmission') path({ slug: (await fx.drop()).slug });
        const boundary = '----dredd-nofile';
        setRawBody(
          transaction,
          `multipart/form-data; boundary=${boundary}`,
          `--${boundary}\r\nContent-Disposition: form-data; name="senderName"\r\n\r\nDredd\r\n--${boundary}--\r\n`,
        );
        return undefined;
      }
      if (transaction.request.method === 'POST') {
        // Operations without a request body: a body that is not JSON at all.
        setJson(transaction, '{"broken":');
        return 'invalid_json';
      }
      // GET and DELETE operations taking only path values: a malformed percent-encoding.
      usePath(transaction, examplePath().replace(/\/[^/]+$/, '/%E0%A4%A'));
      return undefined;
    case 404: {
      if (id === 'createJob' || id === 'apiCreateJob') {
        setJson(transaction, { template: await fx.foreignTemplate(), input: { url: 'http://127.0.0.1:9/a.png' } });
        return 'not_found';
      }
      const missing = {
        slug: 'dredd-no-such-drop',
        id: template.includes('/jobs/')
          ? 'job_nosuchjob000'
          : template.includes('webhook')
            ? 'whd_nosuchdelivery0'
            : template.includes('/templates/')
              ? 'tpl_nosuchtemplate0'
              : 'sub_nosuchsubmission0',
      };
      if (template.includes('/submissions/{id}')) missing.slug = (await fx.drop()).slug;
      if (id === 'getDropTusOptions') {
        // Discovery answers any well-formed slug; a slug the router cannot take is the 404.
        usePath(transaction, '/v1/public/drops/%00/tus');
        return 'not_found';
      }
      if (id === 'downloadFile') {
        const url = await fx.goneUrl();
        usePath(transaction, url.pathname + url.search);
      } else path(missing);
      if (id === 'createPublicSubmission') setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
      if (id === 'updateDrop' || id === 'updateTemplate') setJson(transaction, { name: 'Renamed' });
      if (id === 'updateSubmission') setJson(transaction, { isRead: true });
      return id === 'getDropPage' ? undefined : 'not_found';
    }
    case 409:
      if (id === 'createPublicSubmission') {
        path({ slug: await fx.fullDrop() });
        setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
        return 'drop_full';
      }
      if (id === 'createDrop') {
        setJson(transaction, { name: 'Taken', slug: (await fx.drop()).slug });
        return 'slug_taken';
      }
      if (id === 'getSubmissionDownload') {
        const { slug, submission } = await fx.drop();
        usePath(transaction, `${fill(template, { slug, id: submission })}?processed=true`);
        return 'processed_unavailable';
      }
      if (id === 'createJob' || id === 'apiCreateJob') {
        const key = randomUUID();
        const body = { tool: 'image-resize', input: { url: 'http://127.0.0.1:9/first.png' }, options: { width: 10 } };
        await ok('POST', `${prefix}/jobs`, { body, headers: { 'idempotency-key': key } });
        setHeader(transaction, 'Idempotency-Key', key);
        setJson(transaction, { ...body, options: { width: 20 } });
        return 'idempotency_conflict';
      }
      if (id === 'cancelJob' || id === 'apiCancelJob') {
        path({ id: await finishedJob(prefix) });
        return 'cannot_cancel';
      }
      break;
    case 410:
      path({ slug: await fx.expiredDrop() });
      setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
      return 'drop_expired';
    case 413:
      if (JSON_BODY_OPS.has(id)) {
        setJson(transaction, { name: 'x'.repeat(1024 * 1024 + 1) });
        return 'body_too_large';
      }
      if (id === 'createPublicSubmission') {
        path({ slug: (await fx.drop()).slug });
        setForm(transaction, multipart({ senderName: 'Dredd' }, { name: 'big.txt', type: 'text/plain', content: 'x'.repeat(1024 * 1024 + 4096) }));
        return 'file_too_large';
      }
      break;
    case 415:
      if (JSON_BODY_OPS.has(id)) {
        setRawBody(transaction, 'text/plain', 'name=Dredd');
        return 'unsupported_media_type';
      }
      if (id === 'createPublicSubmission') {
        path({ slug: await fx.imageOnlyDrop() });
        setForm(transaction, multipart({ senderName: 'Dredd' }, textFile));
        return 'kind_not_allowed';
      }
      if (id === 'createUpload') {
        setJson(transaction, { file: 'not a form' });
        return 'unsupported_media_type';
      }
      break;
    case 416: {
      const url = await fx.signedUrl();
      usePath(transaction, url.pathname + url.search);
      setHeader(transaction, 'Range', 'bytes=999999-');
      return 'range_not_satisfiable';
    }
    default:
      break;
  }
  throw new Error(`no way to provoke ${status} for ${operationId}: provoke it in provoke.js or list it in SKIPPED`);
}

module.exports = { provoke, SKIPPED };
