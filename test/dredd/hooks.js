// Dredd hooks: authenticate every transaction and supply the fixtures the examples refer to.
// Error transactions are provoked by provoke.js; hooks-contract.js checks every body with Ajv.
const hooks = require('hooks');

const token = process.env.DREDD_TOKEN;
const baseUrl = process.env.DREDD_BASE_URL;

const { provoke, SKIPPED } = require('./provoke');
const { operationOf } = require('./support');

// Every transaction runs, error responses included: provoke.js creates the precondition for each
// status of 300 or more (the transactions it cannot provoke are listed there, in SKIPPED, with why).
hooks.beforeEach((transaction, done) => {
  transaction.request.headers.Authorization = `Bearer ${token}`;
  if (SKIPPED[transaction.name]) {
    transaction.skip = true;
    return done();
  }
  if (Number(transaction.expected.statusCode) < 300) return done();
  provoke(transaction, operationOf(transaction)).then(
    (code) => {
      transaction.expectedErrorCode = code;
      done();
    },
    // A failed precondition fails this transaction only (a hook error would halt Dredd).
    (err) => {
      transaction.fail = `could not provoke ${transaction.expected.statusCode}: ${err.message}`;
      done();
    },
  );
});

async function api(method, path, body) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

// Delete a drop of its own so the example slug stays for the operations after it.
hooks.before('/v1/drops/{slug} > Delete a drop and all its submissions > 204', async (transaction, done) => {
  try {
    const { drop } = await api('POST', '/v1/drops', { name: 'To be deleted' });
    transaction.fullPath = `/v1/drops/${drop.slug}`;
    transaction.request.uri = transaction.fullPath;
    done();
  } catch (err) {
    done(err);
  }
});

// Templates: the example id names none; each 2xx works on a template made for it.
for (const name of [
  '/v1/templates/{id} > Get a template > 200',
  '/v1/templates/{id} > Rename a template or replace its steps > 200',
  '/v1/templates/{id} > Delete a template > 204',
]) {
  hooks.before(name + (name.endsWith('204') ? '' : ' > application/json'), async (transaction, done) => {
    try {
      const steps = { small: { tool: 'image-resize', options: { width: 32 } } };
      const { template } = await api('POST', '/v1/templates', { name: 'Dredd', steps });
      transaction.fullPath = `/v1/templates/${template.id}`;
      transaction.request.uri = transaction.fullPath;
      done();
    } catch (err) {
      done(err);
    }
  });
}

// ---- Jobs, tools and uploads: real inputs from a fixture server on 127.0.0.1 (ALLOW_PRIVATE_HOSTS
// of the Dredd server); the in-process worker runs the jobs.
const http = require('node:http');
let fixtures;
let fixtureOrigin;

hooks.beforeAll(async (transactions, done) => {
  try {
    const png = await require('sharp')({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 140, b: 90 } } })
      .png()
      .toBuffer();
    fixtures = http.createServer((req, res) => {
      if (req.url === '/image.png') {
        res.setHeader('content-type', 'image/png');
        res.setHeader('content-length', png.length);
        res.end(png);
      } else if (req.url === '/slow.mp4') {
        // Holds the video worker (concurrency 1) for a few seconds, so the next video job stays queued.
        setTimeout(() => {
          res.statusCode = 404;
          res.end();
        }, 5000);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise((resolve) => fixtures.listen(0, '127.0.0.1', resolve));
    fixtureOrigin = `http://127.0.0.1:${fixtures.address().port}`;
    done();
  } catch (err) {
    done(err);
  }
});

hooks.afterAll((transactions, done) => {
  if (!fixtures) return done();
  fixtures.closeAllConnections();
  fixtures.close(() => done());
});

function usePath(transaction, path) {
  transaction.fullPath = path;
  transaction.request.uri = path;
}

async function waitForJob(id, test) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { job } = await api('GET', `/v1/jobs/${id}`);
    if (test(job)) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job.state}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A job that is still queued when the cancel request arrives: it waits behind a slow video job. */
async function queuedJob(body = { tool: 'video-convert', input: { url: `${fixtureOrigin}/slow.mp4` } }) {
  await api('POST', '/v1/jobs', { tool: 'video-convert', input: { url: `${fixtureOrigin}/slow.mp4` } });
  const { id } = await api('POST', '/v1/jobs', body);
  return id;
}

/** The pipeline form of a job body (issue 20): two image steps, the second reading the first. */
function pipelineBody() {
  return {
    input: { url: `${fixtureOrigin}/image.png` },
    steps: { webp: { tool: 'image-convert', options: { format: 'webp' } }, small: { tool: 'image-resize', input: 'webp', options: { width: 16 } } },
  };
}

/** A template of the main key's account, for the template form of a job body. */
let template;
async function templateId() {
  template ??= api('POST', '/v1/templates', { name: 'Dredd pipeline', steps: pipelineBody().steps }).then((res) => res.template.id);
  return template;
}

/**
 * The body each form of POST /v1/jobs is exercised with: /v1 submits the contract's example (one
 * tool) and waits on a pipeline; /api/v1 submits a pipeline and waits on a template's job.
 */
const JOB_BODIES = {
  '/v1': { accepted: (example) => ({ ...example, input: { url: `${fixtureOrigin}/image.png` } }), waited: async () => pipelineBody() },
  '/api/v1': { accepted: () => pipelineBody(), waited: async () => ({ template: await templateId(), input: { url: `${fixtureOrigin}/image.png` } }) },
};

for (const prefix of ['/v1', '/api/v1']) {
  // The contract's example input (http://127.0.0.1:3000/healthz) is not an image: submit the fixture's.
  hooks.before(`${prefix}/jobs > Submit a job > 202 > application/json`, (transaction, done) => {
    transaction.request.body = JSON.stringify(JOB_BODIES[prefix].accepted(JSON.parse(transaction.request.body)));
    // Dredd sends the optional Idempotency-Key header empty (minLength 1): give it a real key.
    for (const name of Object.keys(transaction.request.headers)) {
      if (name.toLowerCase() === 'idempotency-key') delete transaction.request.headers[name];
    }
    transaction.request.headers['Idempotency-Key'] = require('node:crypto').randomUUID();
    // Without Prefer: wait (Dredd may send the optional header empty): the 202 at once.
    for (const name of Object.keys(transaction.request.headers)) if (name.toLowerCase() === 'prefer') delete transaction.request.headers[name];
    done();
  });

  // Prefer: wait on the POST: the small image job ends within the wait, so the answer is the 200 with the job.
  // The 200's other form, the quote of ?dryRun=true (JobQuote), is not Dredd's: Dredd makes one
  // transaction per status, and this one checks the wait form and its Location/Preference-Applied
  // headers. The quote is checked against the contract by test/e2e/jobs/job-quote (its checked client).
  // A pipeline (/v1) or a template's job (/api/v1) of small image steps, which end within the wait.
  hooks.before(`${prefix}/jobs > Submit a job > 200 > application/json`, async (transaction, done) => {
    try {
      transaction.request.body = JSON.stringify(await JOB_BODIES[prefix].waited());
    } catch (err) {
      return done(err);
    }
    for (const name of Object.keys(transaction.request.headers)) {
      if (['idempotency-key', 'prefer'].includes(name.toLowerCase())) delete transaction.request.headers[name];
    }
    transaction.request.headers['Idempotency-Key'] = require('node:crypto').randomUUID();
    transaction.request.headers.Prefer = 'wait=30';
    done();
  });

  // A completed job, so the poll shows a full result with its signed downloadUrl (/api/v1: a
  // completed pipeline, with its steps and their outputs).
  hooks.before(`${prefix}/jobs/{id} > Poll a job > 200 > application/json`, async (transaction, done) => {
    try {
      const body = prefix === '/v1' ? { tool: 'image-resize', input: { url: `${fixtureOrigin}/image.png` }, options: { width: 32 } } : pipelineBody();
      const { id } = await api('POST', '/v1/jobs', body);
      await waitForJob(id, (job) => job.state === 'completed');
      usePath(transaction, `${prefix}/jobs/${id}`);
      done();
    } catch (err) {
      done(err);
    }
  });

  hooks.before(`${prefix}/jobs/{id}/cancel > Cancel a queued job > 200 > application/json`, async (transaction, done) => {
    try {
      // /api/v1 cancels a queued pipeline: every step canceled and refunded.
      const pipeline = { input: { url: `${fixtureOrigin}/slow.mp4` }, steps: { web: { tool: 'video-convert' }, poster: { tool: 'video-thumbnail' } } };
      usePath(transaction, `${prefix}/jobs/${await queuedJob(prefix === '/v1' ? undefined : pipeline)}/cancel`);
      done();
    } catch (err) {
      done(err);
    }
  });
}

// The contract describes the multipart form but gives no body: send one file part.
hooks.before('/v1/uploads > Upload a file to use as job input > 201 > application/json', (transaction, done) => {
  const boundary = '----dredd-upload-boundary';
  for (const name of Object.keys(transaction.request.headers)) {
    if (name.toLowerCase() === 'content-type' || name.toLowerCase() === 'content-length') delete transaction.request.headers[name];
  }
  transaction.request.headers['Content-Type'] = `multipart/form-data; boundary=${boundary}`;
  transaction.request.body = [
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="notes.txt"',
    'Content-Type: text/plain',
    '',
    'A small text file uploaded by the Dredd hooks.',
    `--${boundary}--`,
    '',
  ].join('\r\n');
  done();
});
