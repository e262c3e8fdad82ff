import { createServer, request } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { MiB, streamedForm } from '../support/intake';
const fmt = (m: NodeJS.MemoryUsage) => Object.entries(m).map(([k, v]) => `${k}=${(v / MiB).toFixed(0)}`).join(' ');
it('probe client only', async () => {
  const server = createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as any).port;
  for (const size of [8 * MiB, 200 * MiB]) {
    const { body, contentType } = streamedForm({ fileName: 'x', size });
    const before = process.memoryUsage();
    let peak = before; 
    const s = setInterval(() => { const m = process.memoryUsage(); if (m.rss > peak.rss) peak = m; }, 20);
    await new Promise<void>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', headers: { 'content-type': contentType } }, (res) => { res.resume(); res.on('end', resolve); });
      req.on('error', reject);
      pipeline(body, req).catch(reject);
    });
    clearInterval(s);
    console.log(size / MiB, 'before', fmt(before), '\npeak', fmt(peak));
  }
  server.close();
}, 60000);
