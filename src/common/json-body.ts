import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, nestsDeeperThan, tooDeep } from './json-depth';

// The depth rule itself is plain code (json-depth.ts), shared with the contract and the idempotency fingerprint.
export { MAX_JSON_DEPTH } from './json-depth';

/**
 * The application/json parser: Fastify's own (secure-json-parse, refusing `__proto__` and
 * `constructor.prototype`), after the depth check, so a body too deep is refused before anything
 * holds it as an object — before authentication, like malformed JSON.
 */
export function depthBoundedJsonParser(defaultParser: FastifyBodyParser<string>): FastifyBodyParser<Buffer> {
  return function parseJson(this: FastifyInstance, request, body, done) {
    if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      done(tooDeep(), undefined);
      return;
    }
    return defaultParser.call(this, request, body.toString('utf8'), done);
  };
}
