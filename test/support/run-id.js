// One id per test run (jest, Dredd, CI): it names every database, queue prefix, Redis key prefix
// and storage dir the run uses, so two runs on one machine never touch each other's state.
// `TEST_RUN_ID` fixes it (a worktree's env file does); otherwise the first caller draws a random
// one and puts it in the environment, where jest's workers and spawned processes inherit it.
// Plain CommonJS: jest.config.js and test/dredd/run-dredd.js load it without a transpiler.
const { randomBytes } = require('node:crypto');

function testRunId() {
  if (!process.env.TEST_RUN_ID) process.env.TEST_RUN_ID = randomBytes(4).toString('hex');
  const id = process.env.TEST_RUN_ID;
  // It ends up in database names: lower-case letters, digits and underscores only.
  if (!/^[a-z0-9_]{1,20}$/.test(id)) throw new Error(`TEST_RUN_ID must match [a-z0-9_]{1,20}, got ${JSON.stringify(id)}`);
  return id;
}

module.exports = { testRunId };
