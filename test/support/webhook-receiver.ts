import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  /** Date.now() when the whole request had arrived. */
  receivedAt: number;
}

/**
 * A real HTTP receiver on 127.0.0.1. `respond` decides each answer (status, delay), so tests can
 * play a slow, failing or gone receiver.
 */
export async function startReceiver(
  respond: (n: number) => { status: number; delayMs?: number; headers?: Record<string, string>; /** answer only once this settles */ until?: Promise<unknown> } = () => ({
    status: 204,
  }),
) {
  const received: ReceivedWebhook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), receivedAt: Date.now() });
      const answer = respond(received.length);
      void Promise.resolve(answer.until).then(() =>
        setTimeout(() => {
          res.writeHead(answer.status, answer.headers ?? {});
          res.end();
        }, answer.delayMs ?? 0),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedWebhook[]> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} webhooks`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
