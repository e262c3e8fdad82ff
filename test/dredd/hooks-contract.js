// What Dredd's OpenAPI 3 parser leaves out: it compiles no JSON Schema for any response, so Gavel
// only checks the status, the Content-Type and that the example's keys exist. Here every real
// answer is checked against the contract with Ajv (the jest suites' checker): the status is
// declared, the body is valid against its schema (types, enums, formats, nullability), the
// declared headers are there, and a provoked error carries the code provoke.js asked for.
const hooks = require('hooks');
const { contractChecker, operationOf } = require('./support');

function header(transaction, name) {
  const headers = transaction.real.headers ?? {};
  const key = Object.keys(headers).find((h) => h.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : String(headers[key]);
}

// The examples of the error responses show `details` (a validation error); the contract makes it
// optional. Gavel would demand it of every error: drop it from the example when the answer has none.
hooks.beforeEachValidation((transaction, done) => {
  try {
    if (Number(transaction.expected.statusCode) >= 400 && transaction.expected.body) {
      const expected = JSON.parse(transaction.expected.body);
      const real = JSON.parse(transaction.real.body || '{}');
      if (expected?.error?.details && !real?.error?.details) {
        delete expected.error.details;
        transaction.expected.body = JSON.stringify(expected);
      }
    }
  } catch {
    /* not JSON: left to Gavel and to the check below */
  }
  done();
});

hooks.afterEach((transaction, done) => {
  if (transaction.skip || !transaction.real) return done();
  const op = operationOf(transaction);
  const real = transaction.real;
  const problems = contractChecker().problems(op, {
    method: transaction.request.method,
    url: transaction.fullPath,
    status: real.statusCode,
    header: (name) => header(transaction, name),
    text: real.body ?? '',
  });
  if (transaction.expectedErrorCode) {
    let code;
    try {
      code = JSON.parse(real.body).error.code;
    } catch {}
    if (code !== transaction.expectedErrorCode) problems.push(`error code ${JSON.stringify(code)}, expected ${JSON.stringify(transaction.expectedErrorCode)}`);
  }
  if (problems.length > 0) {
    const message = `${op.operationId} → ${real.statusCode} breaks the contract: ${problems.join('; ')}`;
    transaction.fail = transaction.fail ? `${transaction.fail}; ${message}` : message;
  }
  done();
});
