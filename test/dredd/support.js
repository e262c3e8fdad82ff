// Helpers shared by the Dredd hook files.
const token = process.env.DREDD_TOKEN;
const baseUrl = process.env.DREDD_BASE_URL;

async function api(method, path, body) {
  const res = await fetch(baseUrl + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? undefined : res.json();
}

function usePath(transaction, path) {
  transaction.fullPath = path;
  transaction.request.uri = path;
}

/** A raw multipart/form-data body (Dredd sends strings) and its Content-Type. */
function multipart(fields, file) {
  const boundary = '----dredd-boundary-7f3a';
  const parts = Object.entries(fields).map(([name, value]) => [`--${boundary}`, `Content-Disposition: form-data; name="${name}"`, '', value].join('\r\n'));
  parts.push([`--${boundary}`, `Content-Disposition: form-data; name="file"; filename="${file.name}"`, `Content-Type: ${file.type}`, '', file.content].join('\r\n'));
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: `${parts.join('\r\n')}\r\n--${boundary}--\r\n` };
}

function setBody(transaction, { contentType, body }) {
  for (const name of Object.keys(transaction.request.headers)) {
    if (['content-type', 'content-length'].includes(name.toLowerCase())) delete transaction.request.headers[name];
  }
  transaction.request.headers['Content-Type'] = contentType;
  transaction.request.body = body;
}

/** Wraps an async hook body for Dredd's callback style. */
const step = (fn) => (transaction, done) => Promise.resolve(fn(transaction)).then(() => done(), done);

let checker;
/** The response checker of the jest suites (test/support/contract-check.ts), loaded once. */
function contractChecker() {
  if (!checker) {
    require('@swc-node/register');
    checker = require('../support/contract-check.ts').contractChecker();
  }
  return checker;
}

/** The contract operation of a transaction, from its name ("<path template> > …") and method. */
function operationOf(transaction) {
  const template = transaction.name.split(' > ')[0];
  const op = contractChecker().byTemplate(transaction.request.method, template);
  if (!op) throw new Error(`no operation for ${transaction.request.method} ${template}`);
  return op;
}

module.exports = { api, usePath, multipart, setBody, step, baseUrl, token, contractChecker, operationOf };
