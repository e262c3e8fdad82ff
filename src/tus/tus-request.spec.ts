import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { TusRequest } from './tus-request';

/** The request's web body as a Node stream (the DOM and node:stream/web typings of ReadableStream differ). */
const bodyOf = (tus: TusRequest) => Readable.fromWeb(tus.body as unknown as NodeReadableStream<Uint8Array>);

/** Runs `onRequest` for one request to a loopback server and returns what it resolved to. */
async function withRequest<T>(send: (port: number) => void, onRequest: (req: IncomingMessage, tus: TusRequest) => Promise<T>): Promise<T> {
  let server!: Server;
  const result = new Promise<T>((resolve, reject) => {
    server = createServer((req, res) => {
      onRequest(req, new TusRequest(req, res))
        .then(resolve, reject)
        .finally(() => res.end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    send((server.address() as AddressInfo).port);
    return await result;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('TusRequest', () => {
  it("hands on the request's own body buffers, every byte in order (no copy per chunk)", async () => {
    const body = Buffer.alloc(4 * 1024 * 1024);
    for (let i = 0; i < body.length; i += 4) body.writeUInt32LE(i, i);
    const { received, copies } = await withRequest(
      (port) =>
        request({ port, host: '127.0.0.1', method: 'PATCH', headers: { 'content-length': body.length } })
          .on('error', () => undefined)
          .end(body),
      async (req, tus) => {
        const parsed = new Set<ArrayBufferLike>();
        req.prependListener('data', (chunk: Buffer) => parsed.add(chunk.buffer));
        const chunks: Buffer[] = [];
        for await (const chunk of bodyOf(tus)) chunks.push(chunk as Buffer);
        return { received: Buffer.concat(chunks), copies: chunks.filter((c) => !parsed.has(c.buffer)).length };
      },
    );
    expect(received.equals(body)).toBe(true);
    expect(copies).toBe(0);
  });

  it('errors the body when the client goes away mid-body', async () => {
    const outcome = await withRequest(
      (port) => {
        const req = request({ port, host: '127.0.0.1', method: 'PATCH', headers: { 'content-length': 1024 * 1024 } });
        req.on('error', () => undefined);
        req.write(Buffer.alloc(1000), () => setImmediate(() => req.destroy()));
      },
      async (_req, tus) => {
        try {
          for await (const _chunk of bodyOf(tus)) void _chunk;
          return 'ended';
        } catch {
          return 'errored';
        }
      },
    );
    expect(outcome).toBe('errored');
  });

  it('has no body for GET and HEAD', async () => {
    const body = await withRequest(
      (port) =>
        request({ port, host: '127.0.0.1', method: 'HEAD' })
          .on('error', () => undefined)
          .end(),
      async (_req, tus) => tus.body,
    );
    expect(body).toBeNull();
  });
});
