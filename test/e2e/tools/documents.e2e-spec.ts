import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import type { Job, JobAccepted } from '../../../generated/types';
import { contractFetch } from '../../support/contract-check';
import { makeDocx, makePdf, pdfInfo, pdfText, zipBombDocx } from '../../support/document-fixtures';
import { creditBalance, waitForJob } from '../../support/jobs';
import { makePng, serveFiles } from '../../support/media-fixtures';
import { startTestApp, type Tenant, type TestApp, uniqueSlug } from '../../support/test-app';

/**
 * Documents end to end (issue 19 items 5, 6, 9): document-convert (LibreOffice) and pdf-render
 * (pdftoppm) through POST /v1/jobs with `input.url` and `input.fileId`, their outputs decoded with
 * poppler and sharp; hostile documents fail with a clear code and a refund, leave no work directory,
 * and the worker goes on; a drop with `autoConvertTo: pdf` turns an arriving .docx into a PDF.
 */
describe('document jobs end to end', () => {
  let t: TestApp;
  let tenant: Tenant;
  let dir: string;
  let files: Awaited<ReturnType<typeof serveFiles>>;
  let docx: Buffer;
  let pdf: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-e2e-documents-'));
    docx = await makeDocx(['Invoice 2026-117', 'Total due: 1 234,56 €']);
    pdf = makePdf(3, {
      colors: [
        [1, 1, 1],
        [0, 0, 1],
        [1, 1, 1],
      ],
    });
    files = await serveFiles({
      'invoice.docx': docx,
      'report.pdf': pdf,
      'cut.docx': docx.subarray(0, Math.floor(docx.length / 2)),
      'bomb.docx': await zipBombDocx(150),
      'pages.pdf': makePdf(10_000, { shared: true }),
      'photo.png': await makePng(32, 32),
      'random.bin': Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)),
    });
    t = await startTestApp({ WORKER_IN_PROCESS: 'true', ALLOW_PRIVATE_HOSTS: '127.0.0.1', STORAGE_DIR: join(dir, 'files') });
    tenant = await t.newTenant({ credits: 1000 });
  });

  afterAll(async () => {
    await t?.close();
    await files?.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function submit(tool: 'document-convert' | 'pdf-render', input: { url?: string; fileId?: string }, options: Record<string, unknown> = {}, who = tenant): Promise<string> {
    const { response, data } = await who.client.POST('/v1/jobs', { body: { tool, input, options } as never });
    expect(response.status).toBe(202);
    return (data as JobAccepted).id;
  }

  async function upload(data: Buffer, name: string, type: string): Promise<{ id: string; fileKind: string }> {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(data)], { type }), name);
    const res = await contractFetch(`${t.baseUrl}/v1/uploads`, { method: 'POST', headers: { authorization: `Bearer ${tenant.token}` }, body: form });
    expect(res.status).toBe(201);
    return (await res.json()).upload;
  }

  async function download(url: string, name: string): Promise<string> {
    const res = await contractFetch(url);
    expect(res.status).toBe(200);
    const path = join(dir, name);
    await writeFile(path, Buffer.from(await res.arrayBuffer()));
    return path;
  }

  /** No work directory of these jobs is left in the temp dir. */
  async function leftovers(jobs: Job[]): Promise<string[]> {
    return (await readdir(tmpdir())).filter((name) => jobs.some((job) => name.startsWith(`dropline-${job.id}-`)));
  }

  it('document-convert: a .docx by URL and by upload becomes a PDF (pdfinfo, pdftotext), result.pages', async () => {
    const uploaded = await upload(docx, 'invoice.docx', 'application/octet-stream');
    expect(uploaded.fileKind).toBe('document');
    const ids = [await submit('document-convert', { url: files.url('invoice.docx') }), await submit('document-convert', { fileId: uploaded.id }, { format: 'pdf' })];
    for (const id of ids) {
      const job = await waitForJob(tenant.client, id, 240_000);
      expect(job).toMatchObject({
        state: 'completed',
        queue: 'document-standard-queue',
        cost: 2,
        result: { outputFormat: 'pdf', pages: 1, message: 'Converted DOCX to PDF (1 page).' },
      });
      const path = await download(job.result!.downloadUrl!, `${id}.pdf`);
      expect(await pdfInfo(path)).toMatchObject({ Pages: '1' });
      expect(await pdfText(path)).toContain('Total due: 1 234,56 €');
      expect(decodeURIComponent(job.result!.downloadUrl!)).toContain('invoice.pdf');
    }
  }, 300_000);

  it('pdf-render: a page by URL (webp at a width) and by upload (png at a dpi); a page past the last fails invalid_option, refunded', async () => {
    const uploaded = await upload(pdf, 'report.pdf', 'application/pdf');
    const before = await creditBalance(tenant.client);
    const [byUrl, byFile, past] = await Promise.all(
      [
        await submit('pdf-render', { url: files.url('report.pdf') }, { page: 2, format: 'webp', width: 300 }),
        await submit('pdf-render', { fileId: uploaded.id }, { dpi: 36 }),
        await submit('pdf-render', { fileId: uploaded.id }, { page: 5 }),
      ].map((id) => waitForJob(tenant.client, id, 120_000)),
    );
    expect(byUrl).toMatchObject({ state: 'completed', result: { outputFormat: 'webp', width: 300, height: 389, pages: 3 } });
    const webp = await sharp(await download(byUrl.result!.downloadUrl!, 'page2.webp'))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(webp.info).toMatchObject({ width: 300, height: 389 });
    expect(webp.data[2]).toBeGreaterThan(200); // page 2 is blue
    expect(webp.data[0]).toBeLessThan(50);
    expect(byFile).toMatchObject({ state: 'completed', result: { outputFormat: 'png', width: 306, height: 396, pages: 3 } });
    expect(await sharp(await download(byFile.result!.downloadUrl!, 'page1.png')).metadata()).toMatchObject({ format: 'png', width: 306, height: 396 });
    expect(past).toMatchObject({ state: 'failed', refunded: true, error: { code: 'invalid_option', message: 'page 5 does not exist: the PDF has 3 pages.' } });
    expect(await creditBalance(tenant.client)).toBe(before - 2);
  }, 180_000);

  it('refused at submission: a page over the page limit, width with dpi, a key without documents:write, a PDF upload sent to pdf-render as an image', async () => {
    const over = await tenant.client.POST('/v1/jobs', { body: { tool: 'pdf-render', input: { url: files.url('report.pdf') }, options: { page: 2001 } } });
    expect(over.response.status).toBe(400);
    expect(over.error).toMatchObject({ error: { code: 'validation_failed' } });
    const both = await tenant.client.POST('/v1/jobs', { body: { tool: 'pdf-render', input: { url: files.url('report.pdf') }, options: { width: 10, dpi: 72 } } });
    expect(both.error).toMatchObject({ error: { code: 'validation_failed', details: [{ path: 'body/options/dpi' }] } });
    const imagesOnly = await t.newKey(tenant.account.id, { scopes: ['image:write'] });
    const refused = await imagesOnly.client.POST('/v1/jobs', { body: { tool: 'document-convert', input: { url: files.url('invoice.docx') } } });
    expect(refused.response.status).toBe(403);
    expect(refused.error).toMatchObject({ error: { code: 'insufficient_scope', message: 'This operation needs the documents:write scope.' } });
    const png = await upload(await makePng(8, 8), 'icon.png', 'image/png');
    const wrongKind = await tenant.client.POST('/v1/jobs', { body: { tool: 'pdf-render', input: { fileId: png.id } } });
    expect(wrongKind.error).toMatchObject({ error: { code: 'unsupported_input' } });
  });

  it('hostile inputs fail with a clear code, are refunded, leave no work directory, and the worker goes on', async () => {
    const before = await creditBalance(tenant.client);
    const jobs = await Promise.all(
      [
        await submit('document-convert', { url: files.url('bomb.docx') }),
        await submit('document-convert', { url: files.url('cut.docx') }),
        await submit('document-convert', { url: files.url('random.bin') }),
        await submit('document-convert', { url: files.url('photo.png') }),
        await submit('document-convert', { url: files.url('report.pdf') }),
        await submit('pdf-render', { url: files.url('pages.pdf') }),
        await submit('pdf-render', { url: files.url('invoice.docx') }),
      ].map((id) => waitForJob(tenant.client, id, 120_000)),
    );
    const outcome = jobs.map((job) => [job.state, job.error?.code, job.refunded]);
    expect(outcome).toEqual(Array(7).fill(['failed', 'unsupported_input', true]));
    const messages = jobs.map((job) => job.error!.message);
    expect(messages[0]).toBe('The document expands to more than 64 MB: it is refused as a zip bomb.');
    expect(messages[1]).toBe('The document is truncated or corrupt.');
    expect(messages[2]).toBe('document-convert needs a document file; the input is not a media file.');
    expect(messages[3]).toBe('document-convert needs a document file; the input is an image file.');
    expect(messages[5]).toBe('The PDF has 10000 pages, which exceeds the limit of 2000.');
    for (const message of messages) expect(message).not.toMatch(/\n|\/tmp\/|soffice|at .*:\d+/);
    expect(await creditBalance(tenant.client)).toBe(before);
    // A work dir goes in the run's `finally`, just after the failed state is written: wait for them.
    const deadline = Date.now() + 10_000;
    while ((await leftovers(jobs)).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await leftovers(jobs)).toEqual([]);

    const after = await waitForJob(tenant.client, await submit('pdf-render', { url: files.url('report.pdf') }, { page: 3, format: 'jpeg', width: 64 }), 120_000);
    expect(after).toMatchObject({ state: 'completed', result: { outputFormat: 'jpeg', width: 64 } });
  }, 240_000);

  it('a drop with allowedKinds document and autoConvertTo pdf turns an arriving .docx into a downloadable PDF', async () => {
    const owner = await t.newTenant({ plan: 'pro', credits: 20 });
    const slug = uniqueSlug('docs');
    const created = await owner.client.POST('/v1/drops', { body: { name: 'Contracts', slug, allowedKinds: 'document', autoConvertTo: 'pdf' } });
    expect(created.response.status).toBe(201);
    const form = new FormData();
    form.append('senderName', 'Ada');
    form.append('file', new Blob([new Uint8Array(docx)], { type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' }), 'contract.docx');
    const sent = await contractFetch(`${t.baseUrl}/v1/public/drops/${slug}/submissions`, { method: 'POST', body: form });
    expect(sent.status).toBe(201);
    const { submission } = await sent.json();
    expect(submission).toMatchObject({ status: 'processing', fileKind: 'document' });

    const deadline = Date.now() + 240_000;
    let done = submission;
    while (done.status === 'processing') {
      if (Date.now() > deadline) throw new Error('the submission is still processing');
      await new Promise((r) => setTimeout(r, 250));
      done = (await owner.client.GET('/v1/drops/{slug}/submissions/{id}', { params: { path: { slug, id: submission.id } } })).data!.submission;
    }
    expect(done).toMatchObject({ status: 'ready', fileName: 'contract.docx', processedFileName: 'contract.pdf', processingError: null });
    const link = await owner.client.GET('/v1/drops/{slug}/submissions/{id}/download', { params: { path: { slug, id: submission.id }, query: { processed: true } } });
    const res = await contractFetch(link.data!.url);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const path = join(dir, 'contract.pdf');
    await writeFile(path, Buffer.from(await res.arrayBuffer()));
    expect(await pdfInfo(path)).toMatchObject({ Pages: '1' });
    expect(await pdfText(path)).toContain('Invoice 2026-117');
  }, 300_000);
});
