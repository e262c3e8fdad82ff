import { ConsoleLogger, type INestApplication, Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { SwaggerModule } from '@nestjs/swagger';
import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import { AppModule } from './app.module';
import { MB, PLAN_LIMITS } from './config/plans';
import { AllErrorsFilter, sendError } from './common/all-errors.filter';
import { AppConfig } from './config/config';
import { Contract } from './contract/contract';

const frameworkLogger = new Logger('Http');
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
/** On SIGTERM, how long requests in flight may take to finish before their connections are cut. */
const SHUTDOWN_GRACE_MS = 20_000;

/** Builds the HTTP app (not listening). main.ts and the e2e tests both use it. */
export async function createApp(config: AppConfig): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false,
    // genReqId reads X-Request-Id itself, so a malformed one is replaced rather than trusted.
    requestIdHeader: false,
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Only idle keep-alive connections are cut on close: requests in flight (a slow upload) finish
    // first, within SHUTDOWN_GRACE_MS (see the preClose hook). `true` reset them (fault test
    // graceful-shutdown).
    forceCloseConnections: 'idle',
    // Malformed URLs are answered by Fastify's router before Nest sees them.
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) => sendError(reply, err, request, frameworkLogger),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config), adapter, {
    logger: jsonLogger(config),
    bufferLogs: false,
  });
  await app.register(multipart as any, {
    // Per-file limits are the drop's or the plan's, enforced while streaming; these bound the rest.
    limits: { files: 1, fields: 20, fieldSize: 16 * 1024, parts: 30, fileSize: PLAN_LIMITS.max.maxFileSizeMB * MB + 1 },
  });
  const fastify = app.getHttpAdapter().getInstance();
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
    // The drain has a deadline: whatever is still open then (a stalled client) is cut.
    setTimeout(() => fastify.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  });
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // While closing, a keep-alive connection ends with its response instead of idling until its
    // keep-alive timeout and holding the shutdown up.
    if (closing) reply.header('connection', 'close');
    // JSON is UTF-8 by definition (RFC 8259); the contract and Dredd expect the bare media type.
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
  });
  app.useGlobalFilters(new AllErrorsFilter());
  app.enableShutdownHooks();

  SwaggerModule.setup('docs', app, app.get(Contract).document as any, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
  await app.init();
  return app;
}

export function jsonLogger(config: AppConfig): ConsoleLogger | false {
  if (config.LOG_LEVEL === 'silent') return false;
  const levels = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'] as const;
  const map: Record<string, number> = { fatal: 0, error: 1, warn: 2, info: 3, debug: 4, trace: 5 };
  return new ConsoleLogger({ json: true, logLevels: levels.slice(0, (map[config.LOG_LEVEL] ?? 3) + 1) as any });
}

export type { INestApplication };
