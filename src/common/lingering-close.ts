import type { IncomingMessage } from 'node:http';

/** How much of an unread request body is still read (and thrown away) after an early answer, and for how long. */
export const LINGER_MAX_BYTES = 64 * 1024 * 1024;
export const LINGER_MAX_MS = 10_000;

/**
 * An answer sent before the request body was read (413, 415, 403 paused, 404, 401…) must reach a
 * client that is still sending. Closing at once makes the kernel reset the connection when more
 * of the body arrives, and the reset throws away the answer the client has not read yet (Node's
 * fetch: "fetch failed"; browsers: a network error). Like nginx's lingering close, the connection
 * still closes after the answer, but first the rest of the body is read and discarded, up to
 * LINGER_MAX_BYTES or LINGER_MAX_MS, whichever comes first.
 *
 * Called before the answer is written; does nothing when the body was read whole.
 */
export function lingerIfBodyUnread(req: IncomingMessage, setHeader: (name: string, value: string) => void): void {
  if (req.complete) return;
  setHeader('connection', 'close');
  const socket = req.socket;
  // Drain from now on: whatever still flows into the request (a multipart parser that stopped
  // reading mid-file lets go of it) is counted and thrown away.
  let received = 0;
  req.unpipe();
  req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > LINGER_MAX_BYTES) socket.destroy();
  });
  req.resume();
  // Node's HTTP server ends a `Connection: close` socket with destroySoon() once the answer is
  // written: instead, half-close (the client sees the answer end) and wait for the body's end.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    if (req.complete) return void socket.destroy();
    const timer = setTimeout(() => socket.destroy(), LINGER_MAX_MS);
    socket.once('close', () => clearTimeout(timer));
    req.once('end', () => socket.destroy());
  };
}
