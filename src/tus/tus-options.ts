import type { FastifyReply } from 'fastify';

/** What both tus endpoints support, for a client's discovery OPTIONS request (tus core). */
export function tusOptions(reply: FastifyReply): FastifyReply {
  return reply.status(204).header('tus-resumable', '1.0.0').header('tus-version', '1.0.0').header('tus-extension', 'creation,creation-with-upload,termination,expiration').send();
}
