import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createClient, type DroplineClient } from '@dropline/client';
import type { DroplineClientOptions } from '../../generated/client';
import type { Account } from '../../src/accounts/account.entity';
import { AccountsService } from '../../src/accounts/accounts.service';
import { createApp } from '../../src/app.factory';
import { ApiKeysService, type NewKeyInput } from '../../src/auth/api-keys.service';
import { SCOPES } from '../../src/auth/scopes';
import { type AppConfig, loadConfig } from '../../src/config/config';
import { contractMiddleware } from './contract-check';
import Redis from 'ioredis';
import { TEST_DATABASE_URL, TEST_QUEUE_PREFIX, TEST_REDIS_URL } from './env';
import { testLogFile } from './log-lines';
import { createServer } from 'node:net';

export interface TestApp {
  app: NestFastifyApplication;
  baseUrl: string;
  /** The app's own BullMQ prefix: a worker process meant to serve this app must use it too. */
  queuePrefix: string;
  config: AppConfig;
  /** An account with a key holding every scope, and a client for it. */
  newTenant(options?: { plan?: Account['plan']; credits?: number; key?: Partial<Omit<NewKeyInput, 'accountId'>> }): Promise<Tenant>;
  newKey(accountId: string, key?: Partial<Omit<NewKeyInput, 'accountId'>>): Promise<{ token: string; keyId: string; client: DroplineClient }>;
  client(token?: string): DroplineClient;
  close(): Promise<void>;
}

export interface Tenant {
  account: Account;
  token: string;
  keyId: string;
  client: DroplineClient;
}

/** Starts the real app on a random loopback port against the test database and Redis. */
export async function startTestApp(env: Record<string, string> = {}, host = '127.0.0.1', options: { logStream?: NodeJS.WritableStream } = {}): Promise<TestApp> {
  const port = await freePort();
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    // Every line goes to the run's log files, checked for their shape at the end (log-lines.ts).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'info',
    LOG_FILE: testLogFile('app'),
    PORT: String(port),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    WORKER_IN_PROCESS: 'false',
    // Every suite sends from 127.0.0.1 and shares Redis: a per-IP limit would couple parallel suites.
    PUBLIC_RATE_LIMIT: '10000',
    // Likewise the cap on concurrent public uploads per address (test/e2e/http/stalled-clients sets its own).
    PUBLIC_UPLOADS_PER_IP: '1000',
    // And the budget of failed authentications per address (test/e2e/auth/auth-failures sets its own).
    AUTH_FAILURES_PER_IP: '10000',
    // Suites (and other runs) share one Redis: each app gets queues and rate-limit counters of its
    // own, so no suite's worker takes another suite's jobs (with the wrong storage dir or settings).
    QUEUE_PREFIX: `${TEST_QUEUE_PREFIX}-${Math.random().toString(36).slice(2, 10)}`,
    ...env,
  });
  const ownPrefix = !env.QUEUE_PREFIX;
  const app = await createApp(config, options);
  await app.listen(port, host);
  const baseUrl = `http://127.0.0.1:${port}`;
  const accounts = app.get(AccountsService);
  const keys = app.get(ApiKeysService);
  const client = (token?: string) => checkedClient({ baseUrl, token });
  const newKey = async (accountId: string, key: Partial<Omit<NewKeyInput, 'accountId'>> = {}) => {
    const created = await keys.create({ scopes: [...SCOPES], ...key, accountId });
    return { token: created.token, keyId: created.key.id, client: client(created.token) };
  };
  return {
    app,
    baseUrl,
    queuePrefix: config.QUEUE_PREFIX!,
    config,
    client,
    newKey,
    async newTenant(options = {}) {
      // bench plan: tests are not throttled unless they ask for a real plan.
      const account = await accounts.create(options.plan ?? 'bench', options.credits ?? 1000);
      return { account, ...(await newKey(account.id, options.key)) };
    },
    async close() {
      await app.close();
      // A prefix someone passed in may be shared with another app still running: theirs to clean.
      if (ownPrefix) await deleteRedisKeys(config.REDIS_URL, `${config.QUEUE_PREFIX}:*`);
    },
  };
}

/**
 * The client package as a user imports it ('@dropline/client'), with every answer it gets checked
 * against openapi.yaml: a mismatch fails the test.
 */
export function checkedClient(options: DroplineClientOptions): DroplineClient {
  const client = createClient({ baseUrl: options.baseUrl, apiKey: options.token, fetch: options.fetch });
  client.use(contractMiddleware);
  return client;
}

/** Removes the Redis keys a test created (its app's queues and rate-limit counters). */
export async function deleteRedisKeys(redisUrl: string, pattern: string): Promise<number> {
  // No reconnecting: a private Redis a test has stopped has nothing left to clean.
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  let removed = 0;
  try {
    for await (const keys of redis.scanStream({ match: pattern, count: 500 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) removed += await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
  return removed;
}

/** A slug no other test run will have picked. */
export function uniqueSlug(prefix = 't'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A port nothing listens on now, so the app's PUBLIC_BASE_URL can name it before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
