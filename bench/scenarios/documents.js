'use strict';
/**
 * Documents: CPU-ms per job of document-convert (a small .docx → PDF) and pdf-render (page 1 of a
 * PDF → PNG at 150 dpi) end to end (submit by URL → completed), one job at a time, vs the bare
 * binaries on the same input (`soffice --convert-to pdf` with a fresh profile, `pdftoppm`) run from
 * this process. CPU is counted with the children: the service's own plus its reaped children's
 * (/proc/<pid>/stat cutime + cstime: LibreOffice and pdftoppm exit after each job), the reference's
 * likewise for this process. BENCH_DOC_JOBS=<n> jobs per tool (default 4, --quick 2).
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { cpuMs, log, sleep, fmt } = require('../lib');

/** This process's or `pid`'s reaped children's CPU (ms). */
function childrenCpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** A small .docx made by LibreOffice itself from text (the bench makes its inputs). */
function makeDocx(dir) {
  const txt = path.join(dir, 'letter.txt');
  fs.writeFileSync(txt, Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}: the quick brown fox jumps over the lazy dog.`).join('\n'));
  const profile = fs.mkdtempSync(path.join(dir, 'profile-'));
  execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${profile}`, '--convert-to', 'docx:MS Word 2007 XML', '--outdir', dir, txt], { stdio: 'ignore' });
  fs.rmSync(profile, { recursive: true, force: true });
  return path.join(dir, 'letter.docx');
}

/** A 3-page PDF, converted from the .docx the same way. */
function makePdf(dir, docx) {
  const profile = fs.mkdtempSync(path.join(dir, 'profile-'));
  execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', dir, docx], { stdio: 'ignore' });
  fs.rmSync(profile, { recursive: true, force: true });
  return path.join(dir, 'letter.pdf');
}

function serve(files, port) {
  const server = http.createServer((req, res) => {
    const file = files[req.url.slice(1)];
    if (!file) return res.writeHead(404).end();
    const body = fs.readFileSync(file);
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function serviceRun(api, pid, n, body) {
  const before = cpuMs(pid) + childrenCpuMs(pid);
  const started = Date.now();
  for (let i = 0; i < n; i++) {
    const accepted = await api('POST', '/v1/jobs', body, { 'idempotency-key': randomUUID() });
    for (;;) {
      const { job } = await api('GET', `/v1/jobs/${accepted.id}`);
      if (job.state === 'completed') break;
      if (job.state === 'failed' || job.state === 'canceled') throw new Error(`${body.tool} job ${job.state}: ${JSON.stringify(job.error)}`);
      await sleep(100);
    }
  }
  return { cpuMs: (cpuMs(pid) + childrenCpuMs(pid) - before) / n, ms: (Date.now() - started) / n };
}

function referenceRun(n, run) {
  const cpu = process.cpuUsage();
  const before = childrenCpuMs(process.pid);
  const started = Date.now();
  for (let i = 0; i < n; i++) run(i);
  const own = process.cpuUsage(cpu);
  return { cpuMs: ((own.user + own.system) / 1000 + childrenCpuMs(process.pid) - before) / n, ms: (Date.now() - started) / n };
}

/**
 * The API call, retried once when a pooled keep-alive socket turned out closed (the readiness probe's,
 * idle while the fixtures were made: the server closed it); the same idempotency key makes it safe.
 * Another network error is named by its cause (undici's bare "fetch failed" says nothing).
 */
function withCause(api) {
  return (...args) =>
    api(...args)
      .catch((err) => (err.cause?.code === 'UND_ERR_SOCKET' ? api(...args) : Promise.reject(err)))
      .catch((err) => {
        throw err.cause ? new Error(`${args[0]} ${args[1]}: ${err.message} (${err.cause.code ?? ''} ${err.cause.message})`) : err;
      });
}

module.exports = async function documents(ctx) {
  const n = Number(process.env.BENCH_DOC_JOBS ?? (ctx.quick ? 2 : 4));
  const dir = fs.mkdtempSync(path.join(ctx.tmpDir, 'documents-'));
  const docx = makeDocx(dir);
  const pdf = makePdf(dir, docx);
  const server = await serve({ 'letter.docx': docx, 'letter.pdf': pdf }, ctx.fixturePort);
  const url = (name) => `http://127.0.0.1:${ctx.fixturePort}/${name}`;
  try {
    const convert = await serviceRun(withCause(ctx.api), ctx.app.pid, n, { tool: 'document-convert', input: { url: url('letter.docx') } });
    const convertRef = referenceRun(n, (i) => {
      const profile = fs.mkdtempSync(path.join(dir, 'ref-profile-'));
      execFileSync('soffice', ['--headless', `-env:UserInstallation=file://${profile}`, '--convert-to', 'pdf', '--outdir', path.join(dir, `ref-${i}`), docx], { stdio: 'ignore' });
      fs.rmSync(profile, { recursive: true, force: true });
    });
    const render = await serviceRun(withCause(ctx.api), ctx.app.pid, n * 4, {
      tool: 'pdf-render',
      input: { url: url('letter.pdf') },
      options: { page: 1, format: 'png', dpi: 150 },
    });
    const renderRef = referenceRun(n * 4, (i) => execFileSync('pdftoppm', ['-f', '1', '-l', '1', '-singlefile', '-png', '-r', '150', pdf, path.join(dir, `page-${i}`)]));
    log(`documents: document-convert ${fmt.n(convert.cpuMs)} CPU-ms/job (${fmt.ms(convert.ms)}/job) vs soffice alone ${fmt.n(convertRef.cpuMs)} (${fmt.ms(convertRef.ms)})`);
    log(`documents: pdf-render ${fmt.n(render.cpuMs)} CPU-ms/job (${fmt.ms(render.ms)}/job) vs pdftoppm alone ${fmt.n(renderRef.cpuMs)} (${fmt.ms(renderRef.ms)})`);
    return {
      name: `Documents: document-convert (.docx → PDF, ${n} jobs) and pdf-render (page 1 → PNG 150 dpi, ${n * 4} jobs), one at a time`,
      service: `convert ${fmt.n(convert.cpuMs)} CPU-ms/job · render ${fmt.n(render.cpuMs)} CPU-ms/job`,
      reference: `soffice ${fmt.n(convertRef.cpuMs)} CPU-ms · pdftoppm ${fmt.n(renderRef.cpuMs)} CPU-ms (bare binaries, same inputs)`,
      ratio: `${fmt.pct(convertRef.cpuMs / convert.cpuMs)} · ${fmt.pct(renderRef.cpuMs / render.cpuMs)} of the bare binaries' CPU efficiency`,
      target: 'report',
      met: true,
      raw: { n, convert, convertRef, render, renderRef },
    };
  } finally {
    server.close();
    server.closeAllConnections?.();
    fs.rmSync(dir, { recursive: true, force: true });
  }
};
