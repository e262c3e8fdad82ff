// Dredd hooks: authenticate every transaction and supply the fixtures the examples refer to.
// Operations implemented by later issues are skipped by name here, never by editing openapi.yaml.
const hooks = require('hooks');

const token = process.env.DREDD_TOKEN;
const baseUrl = process.env.DREDD_BASE_URL;

/** Transaction-name prefixes ("<path> > <summary>") not implemented yet. */
const NOT_YET_IMPLEMENTED = [
  '/v1/drops/{slug}/submissions',
  '/v1/public/drops/{slug}',
  '/d/{slug}',
  '/v1/files/{key}',
  '/v1/uploads',
  '/v1/tools',
  '/v1/jobs',
  '/api/v1/jobs',
  '/v1/webhook-deliveries',
];

hooks.beforeEach((transaction, done) => {
  // Error responses are covered by the jest e2e suites, which can provoke them; Dredd checks the success path.
  const status = Number(transaction.expected.statusCode);
  if (status >= 300 || (status === 200 && transaction.name.startsWith('/readyz > Readiness probe > 503'))) transaction.skip = true;
  if (NOT_YET_IMPLEMENTED.some((prefix) => transaction.name.startsWith(prefix + ' >') || transaction.name.startsWith(prefix + '/'))) {
    transaction.skip = true;
  }
  transaction.request.headers.Authorization = `Bearer ${token}`;
  done();
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
