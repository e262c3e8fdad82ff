import { type BeforeApplicationShutdown, type DynamicModule, Injectable, Logger as NestLogger, Module, type OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import pino, { type Logger } from 'pino';
import { requestIdentity } from './request-identity';

/** Start is logged by main.ts / main-worker.ts once listening; this logs the shutdown. */
@Injectable()
export class LifecycleLog implements BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new NestLogger('Lifecycle');

  beforeApplicationShutdown(signal?: string): void {
    this.logger.log({ signal: signal ?? null }, 'Shutting down');
  }

  onApplicationShutdown(signal?: string): void {
    this.logger.log({ signal: signal ?? null }, 'Stopped');
  }
}

/**
 * nestjs-pino over the process's root logger: Nest's `Logger` calls go to pino, and inside a
 * request every line carries the request's `reqId` (the X-Request-Id answered). Each request is
 * logged once when it completes (method, url, status, responseTime, and the `accountId` and
 * `keyId` of an authenticated caller).
 */
@Module({})
export class LoggingModule {
  static forRoot(root: Logger): DynamicModule {
    return {
      module: LoggingModule,
      imports: [
        LoggerModule.forRoot({
          pinoHttp: {
            logger: root,
            // Fastify's genReqId (app.factory.ts) picked the id and left it on the raw request.
            genReqId: (req: IncomingMessage & { id?: unknown }) => (typeof req.id === 'string' ? req.id : randomUUID()),
            customAttributeKeys: { reqId: 'reqId' },
            quietReqLogger: true,
            quietResLogger: true,
            // pino-http makes up an Error ("failed with status code 503") for every 5xx answered without
            // one: its stack says nothing (a readiness 503 is an answer, not a fault), so it is left out.
            serializers: { res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }), err: withoutMadeUpError },
            customSuccessMessage: (req, res) => `${req.method} ${urlPath(req.url)} ${res.statusCode}`,
            customErrorMessage: (req, res) => `${req.method} ${urlPath(req.url)} ${res.statusCode}`,
            // quietReqLogger leaves the request out of the line: put back what identifies it.
            customSuccessObject: (req, _res, value) => ({ ...value, ...requestIdentity(req), req: { method: req.method, url: urlPath(req.url) } }),
            customErrorObject: (req, _res, _err, value) => ({ ...value, ...requestIdentity(req), req: { method: req.method, url: urlPath(req.url) } }),
            // /readyz answering 503 (a dependency is down) is what it is for: a warning, the outage itself is logged once (OutageLog).
            customLogLevel: (req, res, err) => (err || (res.statusCode >= 500 && !isReadiness(req)) ? 'error' : res.statusCode >= 500 ? 'warn' : 'info'),
          },
        }),
      ],
      providers: [LifecycleLog],
      exports: [LoggerModule],
    };
  }
}

/**
 * The URL as logged: the credentials a URL may carry (the `sig` of signed download URLs) are
 * replaced, so the log cannot be replayed as links.
 */
export function urlPath(url: string | undefined): string {
  return (url ?? '').replace(SECRET_QUERY_PARAMS, '$1[redacted]');
}
const SECRET_QUERY_PARAMS = /([?&](?:sig|token)=)[^&#]*/gi;

const isReadiness = (req: IncomingMessage) => urlPath(req.url).split('?')[0] === '/readyz';

function withoutMadeUpError(err: Error): unknown {
  return /^failed with status code \d+$/.test(err?.message ?? '') ? undefined : pino.stdSerializers.err(err);
}
