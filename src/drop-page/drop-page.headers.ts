import type { FastifyReply } from 'fastify';
import { randomBytes } from 'node:crypto';
import { contentSecurityPolicy } from './drop-page.view';

/** Sends an HTML page with a fresh CSP nonce and the headers every drop page carries. */
export function sendHtml(reply: FastifyReply, status: number, render: (nonce: string) => string, withScript: boolean): FastifyReply {
  const nonce = randomBytes(16).toString('base64');
  return (
    reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', contentSecurityPolicy(nonce, withScript))
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'no-referrer')
      .header('cross-origin-opener-policy', 'same-origin')
      // The page shows whether the drop is open right now, and each response has its own nonce.
      .header('cache-control', 'no-store')
      .send(render(nonce))
  );
}
