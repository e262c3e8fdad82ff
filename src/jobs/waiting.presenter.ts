import type { FastifyReply } from 'fastify';

/** Added to a waiting socket's idle timeout beyond the wait itself: the answer still has to be written. */
const SOCKET_MARGIN_MS = 5_000;

/**
 * The HTTP side of `Prefer: wait=N` (JobWaits is the rest): `wait` gets N seconds less what the
 * request has already spent since `startedAt`, and a signal that aborts when the client hangs up
 * (its waiter and timer go at once). The server cuts a socket idle for UPLOAD_IDLE_TIMEOUT_S (a
 * stalled upload); a wait is idle by design, so its socket's idle timeout covers the wait and is
 * put back afterwards. The answer says `Preference-Applied: wait=N`.
 */
export async function waitingFor<T>(
  reply: FastifyReply,
  seconds: number,
  startedAt: number,
  wait: (timeoutMs: number, signal: AbortSignal) => Promise<T | undefined>,
): Promise<T | undefined> {
  const response = reply.raw;
  const socket = reply.request.raw.socket;
  const gone = new AbortController();
  const onClose = () => {
    if (!response.writableFinished) gone.abort();
  };
  response.once('close', onClose);
  const idleTimeout = socket.timeout ?? 0;
  const timeoutMs = Math.max(0, seconds * 1000 - (Date.now() - startedAt));
  if (idleTimeout > 0) socket.setTimeout(Math.max(idleTimeout, timeoutMs + SOCKET_MARGIN_MS));
  try {
    return await wait(timeoutMs, gone.signal);
  } finally {
    response.off('close', onClose);
    if (idleTimeout > 0 && !socket.destroyed) socket.setTimeout(idleTimeout);
    reply.header('preference-applied', `wait=${seconds}`);
  }
}
