import { type INestApplication, Logger } from '@nestjs/common';
import { Logger as PinoNestLogger } from 'nestjs-pino';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import { resolve } from 'node:path';
import { AppModule } from './app.module';
import { applyDeferredVerdict } from './auth/deferred-rate-limit';
import { MB, PLAN_LIMITS } from './config/plans';
import { AllErrorsFilter, sendFrameworkError } from './common/all-errors.filter';
import { depthBoundedJsonParser } from './common/json-body';
import { lingerIfBodyUnread } from './common/lingering-close';
import { sendDropPageFrameworkError } from './drop-page/drop-page.filter';
import { AppConfig, publicBaseUrl } from './config/config';
import { Contract } from './contract/contract';
import { docsDocument } from './contract/docs-document';
import { serveDocs } from './contract/docs-page';

const frameworkLogger = new Logger('Http');
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
const BODY_LIMIT = 1024 * 1024;
/** On SIGTERM, how long requests in flight may take to finish before their connections are cut. */
const shutdownGraceMs = (config: AppConfig) => Math.min(20_000, (config.SHUTDOWN_TIMEOUT_S - 2) * 1000);

/** Builds the HTTP app (not listening). main.ts and the e2e tests both use it. */
export async function createApp(config: AppConfig, options: { logStream?: NodeJS.WritableStream } = {}): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    // Requests are logged by nestjs-pino (src/logging), in the same shape as every other line.
    logger: false,
    trustProxy: config.TRUST_PROXY.length > 0 ? config.TRUST_PROXY : false,
    // genReqId reads X-Request-Id itself, so a malformed one is replaced rather than trusted.
    requestIdHeader: false,
    genReqId: (req: IncomingMessage) => {
      const given = req.headers['x-request-id'];
      const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
      // Left on the raw request too: pino-http's reqId is the same id (src/logging).
      req.id = id;
      return id;
    },
    bodyLimit: BODY_LIMIT,
    // A client that stops sending (an upload stalled after 5 KB) would hold its socket and its
    // .part file forever: a socket silent for UPLOAD_IDLE_TIMEOUT_S is destroyed, which aborts the
    // request's streams (the storage driver removes the partial file). Headers must arrive within
    // the same time however slowly they trickle in (slowloris).
    connectionTimeout: config.UPLOAD_IDLE_TIMEOUT_S * 1000,
    http: {
      headersTimeout: config.UPLOAD_IDLE_TIMEOUT_S * 1000,
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, (config.UPLOAD_IDLE_TIMEOUT_S * 1000) / 4)),
    },
    // The longest path value of the contract is a storage key (200 characters); Fastify's default is 100.
    routerOptions: { maxParamLength: 200 },
    return503OnClosing: true,
    // Only idle keep-alive connections are cut on close: requests in flight (a slow upload) finish
    // first, within the shutdown grace (see the preClose hook). `true` reset them (fault test
    // graceful-shutdown).
    forceCloseConnections: 'idle',
    // Malformed URLs are answered by Fastify's router before Nest sees them.
    // Under /d/ the answer is the page's HTML, as the contract declares for getDropPage.
    frameworkErrors: (err: Error, request: FastifyRequest, reply: FastifyReply) =>
      request.url.startsWith('/d/') ? sendDropPageFrameworkError(reply, err) : sendFrameworkError(reply, err, request, frameworkLogger),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, options.logStream), adapter, {
    bufferLogs: true,
  });
  app.useLogger(app.get(PinoNestLogger));
  await app.register(multipart, {
    // Per-file limits are the drop's or the plan's, enforced while streaming; these bound the rest.
    limits: { files: 1, fields: 20, fieldSize: 16 * 1024, parts: 30, fileSize: PLAN_LIMITS.max.maxFileSizeMB * MB + 1 },
  });
  // Only for reply.sendFile (downloads of local files, FilesController): no route of its own.
  // Each call names the storage driver's root; this one is a default the plugin requires.
  await app.register(fastifyStatic, { root: resolve(config.STORAGE_DIR), serve: false });
  const fastify = app.getHttpAdapter().getInstance();
  // JSON bodies are refused past MAX_JSON_DEPTH while parsing (src/common/json-body.ts). Registering
  // a parser this way replaces Nest's defaults, so no urlencoded parser: the contract has no such body.
  app.useBodyParser('application/json', { bodyLimit: BODY_LIMIT }, depthBoundedJsonParser(fastify.getDefaultJsonParser('error', 'error')));
  // tus PATCH bodies are streamed to storage by @tus/server itself: leave them unread here.
  fastify.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null, undefined));
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    // The drain has a deadline: whatever is still open then (a stalled client) is cut.
    setTimeout(() => fastify.server.closeAllConnections(), shutdownGraceMs(config)).unref();
    done();
  });
  fastify.addHook('onSend', async (request, reply, payload) => {
    payload = await applyDeferredVerdict(request, reply, payload);
    reply.header('x-request-id', request.id);
    // While closing, a keep-alive connection ends with its response instead of idling until its
    // keep-alive timeout and holding the shutdown up.
    if (closing) reply.header('connection', 'close');
    // JSON is UTF-8 by definition (RFC 8259); the contract and Dredd expect the bare media type.
    if (reply.getHeader('content-type') === 'application/json; charset=utf-8') reply.header('content-type', 'application/json');
    // Answered before the body was read (413, 415, 403, 404…): read the rest before closing.
    lingerIfBodyUnread(request.raw, (name, value) => {
      reply.header(name, value);
    });
    return payload;
  });
  app.useGlobalFilters(new AllErrorsFilter());
  // Signals are main.ts's (ProcessLifecycle): it bounds the whole shutdown, which Nest's hooks do not.

  serveDocs(app, docsDocument(app.get(Contract).document, publicBaseUrl(config)));
  await app.init();
  return app;
}

export type { INestApplication };
