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

// Gavel demands every key of the example (or of the sample Dredd builds from the schema, which
// lists optional properties too: `details` of an error, `scan.signature` of a clean file). The
// contract's own check below (Ajv) enforces what is required; so a key the answer lacks is dropped
// from the expectation, and Gavel checks the status, the Content-Type and the keys both share.
hooks.beforeEachValidation((transaction, done) => {
  // Gavel also demands every declared response header, `required: false` or not: one the contract
  // makes optional (Preference-Applied, sent only to a request that asked to wait) and the answer
  // lacks is dropped from the expectation; the check below still requires the others.
  try {
    const declared = optionalHeaders(transaction);
    for (const name of Object.keys(transaction.expected.headers ?? {})) {
      if (declared.has(name.toLowerCase()) && header(transaction, name) === undefined) delete transaction.expected.headers[name];
    }
  } catch {
    /* no such operation: left to the check below */
  }
  try {
    if (transaction.expected.body && transaction.real?.body) {
      const expected = JSON.parse(transaction.expected.body);
      transaction.expected.body = JSON.stringify(onlyKeysOf(expected, JSON.parse(transaction.real.body)));
    }
  } catch {
    /* not JSON: left to Gavel and to the check below */
  }
  done();
});

/** Lower-case names of the headers the contract declares `required: false` on this transaction's response. */
function optionalHeaders(transaction) {
  const { operation } = operationOf(transaction);
  const checker = contractChecker();
  const response = checker.contract.deref(operation.responses?.[String(transaction.expected.statusCode)] ?? {});
  return new Set(
    Object.entries(response.headers ?? {})
      .filter(([, raw]) => checker.contract.deref(raw).required === false)
      .map(([name]) => name.toLowerCase()),
  );
}

/**
 * `expected` without the object keys `real` does not have, at every depth. A null answer keeps null:
 * Dredd's sample of a nullable object holding objects (JobResult: `placeholder`, `info`) is an object,
 * and Ajv below checks the nullability against the contract.
 */
function onlyKeysOf(expected, real) {
  if (real === null) return null;
  if (Array.isArray(expected)) {
    if (!Array.isArray(real) || real.length === 0) return expected;
    return expected.map((item, i) => onlyKeysOf(item, real[Math.min(i, real.length - 1)]));
  }
  if (expected === null || typeof expected !== 'object' || real === null || typeof real !== 'object') return expected;
  return Object.fromEntries(
    Object.entries(expected)
      .filter(([key]) => key in real)
      .map(([key, value]) => [key, onlyKeysOf(value, real[key])]),
  );
}

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
