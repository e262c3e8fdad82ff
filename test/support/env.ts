import { testRunId } from './run-id';

/** This run's id (test/support/run-id.js): every name below carries it. */
export const TEST_RUN_ID: string = testRunId();

/**
 * The test database and Redis: the machine's own services, never mocks. The database is the run's
 * own unless TEST_DATABASE_URL names one; global-teardown drops it only in that case.
 */
export const TEST_DATABASE_IS_OWN = !process.env.TEST_DATABASE_URL;
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? `postgres://postgres@127.0.0.1:5432/dropline_test_${TEST_RUN_ID}`;
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The start of every queue/Redis prefix this run's apps use (`bull:test-<run id>-<app>`). */
export const TEST_QUEUE_PREFIX = `bull:test-${TEST_RUN_ID}`;
