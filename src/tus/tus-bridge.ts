import type { Server } from '@tus/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError } from '../common/domain-error';
import { toErrorResponse } from '../common/error-response';
import { TusRequest } from './tus-request';

const TUS_VERSION = '1.0.0';

/** The error codes of the tus protocol's own refusals (status → code), documented in openapi.yaml. */
const TUS_ERROR_CODES: Record<number, string> = {
  400: 'invalid_tus_request',
  403: 'invalid_tus_request',
  404: 'not_found',
  409: 'offset_mismatch',
  410: 'upload_expired',
  412: 'tus_version_unsupported',
  413: 'file_too_large',
  415: 'unsupported_media_type',
  460: 'checksum_mismatch',
};

/**
 * Throwable from a tus hook or store: @tus/server answers with `status_code` and `body`, here the
 * same `{error:{code,message}}` envelope every other endpoint sends.
 */
export function tusError(err: DomainError): { status_code: number; body: string } {
  const { status, body } = toErrorResponse(err);
  return { status_code: status, body: JSON.stringify(body) };
}

/** Hook and store errors as @tus/server sends them: DomainErrors become the envelope, others stay 500s. */
export function asTusError(err: unknown): unknown {
  return err instanceof DomainError ? tusError(err) : err;
}

/**
 * Runs one tus request through @tus/server on Fastify's raw request (the body is left unread by
 * the `application/offset+octet-stream` parser, so tus streams it to the store) and sends the
 * answer through Fastify. Plain-text protocol errors become the JSON envelope.
 */
/** A request in another tus version than ours: answered 412 before anything else is judged of it. */
export function speaksOtherTusVersion(req: FastifyRequest): boolean {
  const version = req.headers['tus-resumable'];
  return req.method !== 'OPTIONS' && version !== undefined && version !== TUS_VERSION;
}

export async function handleTus(server: Server, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  // tus answers another protocol version 412 with the versions it speaks; @tus/server would call the
  // header invalid (400).
  const version = req.headers['tus-resumable'];
  if (speaksOtherTusVersion(req)) {
    if (req.method === 'PATCH' || req.method === 'POST') reply.header('connection', 'close');
    return reply
      .status(412)
      .headers({ 'tus-resumable': TUS_VERSION, 'tus-version': TUS_VERSION, 'content-type': 'application/json' })
      .send(JSON.stringify({ error: { code: 'tus_version_unsupported', message: `Tus-Resumable ${String(version)} is not supported: this server speaks tus ${TUS_VERSION}.` } }));
  }
  const response = await server.handleWeb(new TusRequest(req.raw, reply.raw));
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'content-length') headers[name] = value;
  });
  reply.status(response.status).headers(headers);
  if (response.status < 400) return reply.send(response.status === 204 ? undefined : await response.text());
  const text = await response.text();
  // The rest of a refused PATCH body is not worth reading.
  if (req.method === 'PATCH' || req.method === 'POST') reply.header('connection', 'close');
  return reply.header('content-type', 'application/json').send(envelope(response.status, text));
}

function envelope(status: number, text: string): string {
  if (text.startsWith('{"error"')) return text;
  const code = TUS_ERROR_CODES[status] ?? (status >= 500 ? 'internal_error' : 'invalid_tus_request');
  const message = status >= 500 ? 'Something went wrong while storing the upload. Please try again.' : text.trim() || `tus request refused (${status}).`;
  return JSON.stringify({ error: { code, message } });
}
