// Dredd fixtures for submissions, the public intake and page, signed files and webhook deliveries.
// The contract's examples name `launch-assets`, which the drops transactions pause and delete, so
// these operations run against a drop and submissions of their own.
const hooks = require('hooks');
const http = require('node:http');
const { api, usePath, multipart, setBody, step, baseUrl } = require('./support');

const EXAMPLE_SLUG = 'launch-assets';
const EXAMPLE_SUBMISSION = 'sub_0000000000000000';
const fixture = { slug: `dredd-${Date.now().toString(36)}`, submissions: [] };
let receiver;

async function sendFile(name) {
  const form = multipart({ senderName: 'Dredd', senderEmail: 'dredd@example.com' }, { name, type: 'text/plain', content: `file ${name}` });
  const res = await fetch(`${baseUrl}/v1/public/drops/${fixture.slug}/submissions`, { method: 'POST', headers: { 'content-type': form.contentType }, body: form.body });
  if (res.status !== 201) throw new Error(`intake: ${res.status} ${await res.text()}`);
  return (await res.json()).submission.id;
}

hooks.beforeAll(
  step(async () => {
    // A webhook receiver on 127.0.0.1, so the delivery log has entries (the server allows 127.0.0.1).
    receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
    await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    await api('POST', '/v1/drops', { name: 'Dredd fixtures', slug: fixture.slug, webhookUrl: `http://127.0.0.1:${receiver.address().port}/hook` });
    fixture.submissions.push(await sendFile('one.txt'), await sendFile('two.txt'));
  }),
);

hooks.afterAll((transactions, done) => {
  if (!receiver) return done();
  receiver.closeAllConnections();
  receiver.close(() => done());
});

/** Points an example path at the fixtures: the slug always, the submission id when there is one. */
function retarget(transaction, submissionId = fixture.submissions[0]) {
  usePath(transaction, transaction.fullPath.replace(`/${EXAMPLE_SLUG}`, `/${fixture.slug}`).replace(EXAMPLE_SUBMISSION, submissionId));
}

for (const name of [
  "/v1/drops/{slug}/submissions > List a drop's submissions > 200 > application/json",
  "/v1/drops/{slug}/events > A drop's audit log > 200 > application/json",
  '/v1/drops/{slug}/submissions/{id} > Get a submission > 200 > application/json',
  '/v1/drops/{slug}/submissions/{id} > Flag a submission read, starred or archived > 200 > application/json',
  '/v1/drops/{slug}/submissions/{id}/download > Get a signed download URL > 200 > application/json',
  '/v1/public/drops/{slug} > The public view of a drop > 200 > application/json',
  '/d/{slug} > The upload page for senders > 200 > text/html',
]) {
  hooks.before(name, (transaction, done) => {
    retarget(transaction);
    done();
  });
}

// The second submission is the one deleted, so the first stays for the download after it.
hooks.before('/v1/drops/{slug}/submissions/{id} > Delete a submission > 204', (transaction, done) => {
  retarget(transaction, fixture.submissions[1]);
  done();
});

hooks.before('/v1/public/drops/{slug}/submissions > Send a file to a drop > 201 > application/json', (transaction, done) => {
  retarget(transaction);
  setBody(transaction, multipart({ senderName: 'Dredd', message: 'hello' }, { name: 'notes.txt', type: 'text/plain', content: 'sent by Dredd' }));
  done();
});

// A real signed URL from the owner API replaces the example key, expiry and signature.
async function useSignedUrl(transaction) {
  const { url } = await api('GET', `/v1/drops/${fixture.slug}/submissions/${fixture.submissions[0]}/download`);
  const signed = new URL(url);
  usePath(transaction, signed.pathname + signed.search);
}

hooks.before(
  '/v1/files/{key} > Fetch a file through a signed URL > 200 > application/octet-stream',
  step(async (transaction) => {
    await useSignedUrl(transaction);
    delete transaction.request.headers.Range;
  }),
);

hooks.before(
  '/v1/files/{key} > Fetch a file through a signed URL > 206 > application/octet-stream',
  step(async (transaction) => {
    await useSignedUrl(transaction);
    transaction.request.headers.Range = 'bytes=0-3';
  }),
);

hooks.before(
  '/v1/webhook-deliveries/{id}/replay > Send a delivery again > 202 > application/json',
  step(async (transaction) => {
    const { deliveries } = await api('GET', '/v1/webhook-deliveries');
    if (deliveries.length === 0) throw new Error('no webhook delivery to replay');
    usePath(transaction, `/v1/webhook-deliveries/${deliveries[0].id}/replay`);
  }),
);

// JSON and HTML carry no charset parameter in the contract's media types; the page sends one.
for (const status of [200, 404, 429]) {
  hooks.beforeValidation(`/d/{slug} > The upload page for senders > ${status} > text/html`, (transaction, done) => {
    for (const name of Object.keys(transaction.real.headers)) {
      if (name.toLowerCase() === 'content-type') transaction.real.headers[name] = transaction.real.headers[name].split(';')[0];
    }
    done();
  });
}

// A signed file is served as its sniffed type (the URL's signed `type`), which the contract's
// single media type (application/octet-stream) stands for: expect the type the URL names.
for (const status of [200, 206]) {
  hooks.beforeValidation(`/v1/files/{key} > Fetch a file through a signed URL > ${status} > application/octet-stream`, (transaction, done) => {
    const type = new URL(transaction.fullPath, baseUrl).searchParams.get('type');
    if (type) transaction.expected.headers['Content-Type'] = type;
    done();
  });
}
