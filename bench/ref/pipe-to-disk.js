'use strict';
/**
 * Reference of the upload benchmark: a bare Node HTTP server piping each request body to a file
 * in DIR, answering 201 with the byte count, then deleting the file. Env: PORT, DIR.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { pipeline } = require('node:stream');

let seq = 0;
const server = http.createServer((req, res) => {
  if (req.method !== 'POST') return res.writeHead(200).end('ok');
  const file = path.join(process.env.DIR, `upload-${process.pid}-${++seq}`);
  let size = 0;
  req.on('data', (chunk) => (size += chunk.length));
  pipeline(req, fs.createWriteStream(file), (err) => {
    res.writeHead(err ? 500 : 201, { 'content-type': 'application/json' }).end(JSON.stringify({ size }));
    fs.rm(file, { force: true }, () => undefined);
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
