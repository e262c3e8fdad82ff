import type { IncomingMessage, ServerResponse } from 'node:http';
import { finished } from 'node:stream';

// srvx (@tus/server's own request adapter) ships only ESM types, which our CommonJS resolution cannot read.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { NodeRequest } = require('srvx/node') as { NodeRequest: new (init: { req: IncomingMessage; res: ServerResponse }) => Request };

/** Body bytes queued ahead of the store before the request is paused: one HTTP parser buffer. */
const QUEUED_BYTES = 64 * 1024;

/**
 * The web Request @tus/server reads, over Node's request, with a body stream that hands on the HTTP
 * parser's own buffers. srvx's body is `Readable.toWeb(req)`, which copies every chunk (to detach
 * it from a pool: parser body buffers are not pooled); each copy left the parser's buffer to the
 * garbage collector, and on Node ≥ 22 those 64 KiB external buffers pile up until a full GC —
 * for a 1 GiB tus upload, most of its CPU. With the buffers themselves, the store's
 * DurableFileSink frees each once written, as the single POST's upload does.
 */
export class TusRequest extends NodeRequest {
  private webBody?: ReadableStream<Uint8Array<ArrayBuffer>> | null;

  constructor(
    private readonly raw: IncomingMessage,
    res: ServerResponse,
  ) {
    super({ req: raw, res });
  }

  override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.webBody === undefined) this.webBody = this.raw.method === 'GET' || this.raw.method === 'HEAD' ? null : bodyStream(this.raw);
    return this.webBody;
  }
}

/** `req` as a web byte stream without copies, paused while the reader is behind (as Node's own adapter does). */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array<ArrayBuffer>> {
  let done = false;
  return new ReadableStream<Uint8Array<ArrayBuffer>>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer<ArrayBuffer>) => {
          if (done) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        // An aborted request (client gone) is an error, like a socket error; the end closes the stream.
        finished(req, { writable: false }, (err) => {
          if (done) return;
          done = true;
          if (err) controller.error(err);
          else controller.close();
        });
      },
      pull() {
        req.resume();
      },
      cancel(reason) {
        done = true;
        req.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUED_BYTES }),
  );
}
