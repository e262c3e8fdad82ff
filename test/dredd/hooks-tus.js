// Dredd fixtures for tus uploads and the submissions archive: a drop of their own and, for the
// operations on one upload, an upload created just before.
const hooks = require('hooks');
const { api, usePath, setBody, step, baseUrl, token } = require('./support');

const EXAMPLE_SLUG = 'launch-assets';
const slug = `dredd-tus-${Date.now().toString(36)}`;
const BODY = 'sent by Dredd over tus';
// The public tus transactions come from made-up client addresses (the server's TRUST_PROXY believes
// 127.0.0.1), leaving 127.0.0.1's per-second budget to the public transactions after them.
let fakeClient = 0;
const nextClient = () => `192.0.2.${++fakeClient}`;

async function createUpload(collection, auth, transaction) {
  const client = auth ? undefined : nextClient();
  if (client) transaction.request.headers['X-Forwarded-For'] = client;
  const res = await fetch(baseUrl + collection, {
    method: 'POST',
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(BODY.length),
      'upload-metadata': 'filename bm90ZXMudHh0',
      ...(auth ? { authorization: `Bearer ${token}` } : { 'x-forwarded-for': client }),
    },
  });
  if (res.status !== 201) throw new Error(`tus create ${collection}: ${res.status} ${await res.text()}`);
  return new URL(res.headers.get('location')).pathname;
}

hooks.beforeAll(step(() => api('POST', '/v1/drops', { name: 'Dredd tus', slug })));

const publicTus = `/v1/public/drops/${slug}/tus`;
for (const name of ['/v1/public/drops/{slug}/tus > tus discovery for a drop > 204', '/v1/public/drops/{slug}/tus > Start a resumable (tus) upload to a drop > 201']) {
  hooks.before(name, (transaction, done) => {
    usePath(transaction, transaction.fullPath.replace(`/${EXAMPLE_SLUG}/`, `/${slug}/`));
    transaction.request.headers['X-Forwarded-For'] = nextClient();
    done();
  });
}

const onUpload = [
  ['/v1/public/drops/{slug}/tus/{id}', publicTus, false],
  ['/v1/uploads/tus/{id}', '/v1/uploads/tus', true],
];
for (const [template, collection, auth] of onUpload) {
  hooks.before(
    `${template} > How much of a tus upload the server has > 200`,
    step(async (transaction) => {
      usePath(transaction, await createUpload(collection, auth, transaction));
      delete transaction.request.body; // HEAD has none
    }),
  );
  hooks.before(
    `${template} > Cancel a tus upload > 204`,
    step(async (transaction) => usePath(transaction, await createUpload(collection, auth, transaction))),
  );
  hooks.before(
    `${template} > Send the next bytes of a tus upload > 204`,
    step(async (transaction) => {
      usePath(transaction, await createUpload(collection, auth, transaction));
      transaction.request.headers['Upload-Offset'] = '0';
      setBody(transaction, { contentType: 'application/offset+octet-stream', body: BODY });
    }),
  );
}

hooks.before("/v1/drops/{slug}/submissions/archive > Download a drop's submissions as one ZIP > 200 > application/zip", (transaction, done) => {
  usePath(transaction, transaction.fullPath.replace(`/${EXAMPLE_SLUG}/`, `/${slug}/`));
  done();
});
