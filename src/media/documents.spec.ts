import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { escapeXml, makeDocx, makeOdt, makePdf, pdfImages, pdfInfo, pdfText, zipBombDocx } from '../../test/support/document-fixtures';
import { makePng } from '../../test/support/media-fixtures';
import { MediaError } from './media.errors';
import { MediaEngine } from './media-engine';

/**
 * Documents in the media layer, with the real programs (LibreOffice, pdfinfo, pdftoppm): the probe,
 * PDF pages to images, documents to PDF — and what a hostile document must not get: files outside
 * its directory, the network, a zip bomb's bytes, more time than the limit.
 */
const repo = new MediaEngine();
let dir: string;
let canary: Server;
let canaryUrl: string;
let canaryHits = 0;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dropline-documents-'));
  canary = createServer((_req, res) => {
    canaryHits++;
    res.end('canary');
  });
  canary.on('connection', () => canaryHits++);
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => canary.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

async function file(name: string, data: Buffer | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, data);
  return path;
}

const outDir = (name: string) => mkdtemp(join(dir, `${name}-`));

async function mediaError(promise: Promise<unknown>, code: string): Promise<MediaError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(MediaError);
  expect((err as MediaError).code).toBe(code);
  return err as MediaError;
}

describe('probe of documents', () => {
  it('names PDFs (with their page count), Office and OpenDocument files, RTF, text and HTML', async () => {
    expect(await repo.probe(await file('three.pdf', makePdf(3)))).toEqual({ kind: 'document', format: 'pdf', pages: 3 });
    expect(await repo.probe(await file('a.docx', await makeDocx(['Hello'])))).toEqual({ kind: 'document', format: 'docx' });
    expect(await repo.probe(await file('a.odt', await makeOdt('<text:p>Hello</text:p>')))).toEqual({ kind: 'document', format: 'odt' });
    expect(await repo.probe(await file('a.rtf', '{\\rtf1\\ansi Hello\\par}'))).toEqual({ kind: 'document', format: 'rtf' });
    expect(await repo.probe(await file('notes', 'Plain words, café.\n'))).toEqual({ kind: 'document', format: 'txt' });
    expect(await repo.probe(await file('page', '\uFEFF <!DOCTYPE html><html><body>Hi</body></html>'))).toEqual({ kind: 'document', format: 'html' });
  });

  it('binary without a known type is still unknown; images are still images', async () => {
    expect(await repo.probe(await file('bin', Buffer.from([0x00, 0x01, 0xff, 0xfe, 0x00, 0x80])))).toEqual({ kind: 'unknown', format: 'unknown' });
    expect(await repo.probe(await file('latin1', Buffer.from('caf\xe9 cr\xe8me', 'latin1')))).toEqual({ kind: 'unknown', format: 'unknown' });
    expect(await repo.probe(await file('p.png', await makePng(8, 8)))).toMatchObject({ kind: 'image', format: 'png' });
  });
});

describe('renderPdfPage', () => {
  let pdf: string;
  beforeAll(async () => {
    pdf = await file(
      'colours.pdf',
      makePdf(3, {
        colors: [
          [1, 0, 0],
          [0, 0, 1],
          [0, 1, 0],
        ],
      }),
    );
  });

  it('renders the asked page at a width (png) or a dpi (webp, jpeg), page 1 by default', async () => {
    const png = await repo.renderPdfPage(pdf, await outDir('png'), { page: 2, format: 'png', width: 200 });
    expect(png).toMatchObject({ format: 'png', width: 200, height: 259, pages: 3 });
    const { data } = await sharp(png.path).raw().toBuffer({ resolveWithObject: true });
    expect([data[0], data[1], data[2]]).toEqual([0, 0, 255]); // page 2 is blue

    const webp = await repo.renderPdfPage(pdf, await outDir('webp'), { page: 3, format: 'webp', dpi: 36 });
    expect(webp).toMatchObject({ format: 'webp', width: 306, height: 396 });
    expect(await sharp(webp.path).metadata()).toMatchObject({ format: 'webp', width: 306, height: 396 });

    const jpeg = await repo.renderPdfPage(pdf, await outDir('jpeg'), { page: 1, format: 'jpeg', dpi: 72 }, 3);
    expect(await sharp(jpeg.path).metadata()).toMatchObject({ format: 'jpeg', width: 612, height: 792 });
  });

  it('a page past the last is invalid_option; a 10 000-page PDF is refused; nothing is left behind', async () => {
    const out = await outDir('range');
    const err = await mediaError(repo.renderPdfPage(pdf, out, { page: 4, format: 'png' }), 'invalid_option');
    expect(err.message).toBe('page 4 does not exist: the PDF has 3 pages.');

    const bomb = await file('bomb.pdf', makePdf(10_000, { shared: true }));
    expect(await repo.probe(bomb)).toEqual({ kind: 'document', format: 'pdf', pages: 10_000 });
    const refused = await mediaError(repo.renderPdfPage(bomb, out, { page: 1, format: 'png' }), 'unsupported_input');
    expect(refused.message).toBe('The PDF has 10000 pages, which exceeds the limit of 2000.');

    const huge = await file('huge.pdf', makePdf(1, { width: 14_400, height: 14_400 }));
    const tooBig = await mediaError(repo.renderPdfPage(huge, out, { page: 1, format: 'png', dpi: 600 }), 'invalid_option');
    expect(tooBig.message).toBe('Page 1 would be 120000×120000 pixels (14400 megapixels), which exceeds the limit of 100 megapixels.');
    expect(await readdir(out)).toEqual([]);
  });

  it('a truncated or fake PDF is unsupported_input', async () => {
    const cut = await file('cut.pdf', makePdf(2).subarray(0, 300));
    const out = await outDir('cut');
    await mediaError(repo.renderPdfPage(cut, out, { page: 1, format: 'png' }), 'unsupported_input');
    const fake = await file('fake.pdf', '%PDF-1.4\nnothing here\n');
    await mediaError(repo.renderPdfPage(fake, out, { page: 1, format: 'png' }), 'unsupported_input');
    expect(await readdir(out)).toEqual([]);
  });
});

describe('convertDocumentToPdf', () => {
  it('converts a .docx (UTF-8 text kept) and leaves only the PDF in the output directory', async () => {
    const docx = await file('letter.docx', await makeDocx(['Dear Ada,', 'Crème brûlée for everyone — ünïcödé.', 'Regards']));
    const out = await outDir('docx');
    const pdf = await repo.convertDocumentToPdf(docx, out, 'docx');
    expect(pdf).toMatchObject({ format: 'pdf', pages: 1 });
    expect(await readdir(out)).toEqual(['output.pdf']);
    expect((await pdfInfo(pdf.path)).Pages).toBe('1');
    const text = await pdfText(pdf.path);
    expect(text).toContain('Dear Ada,');
    expect(text).toContain('Crème brûlée for everyone — ünïcödé.');
  }, 180_000);

  it('documents that link files outside their directory or the network get neither (HTML, ODT, DOCX)', async () => {
    const outside = await mkdtemp(join(dir, 'outside-'));
    const secretPng = join(outside, 'secret.png');
    await writeFile(
      secretPng,
      await sharp({ create: { width: 97, height: 53, channels: 3, background: '#ff00ff' } })
        .png()
        .toBuffer(),
    );
    const secretTxt = join(outside, 'secret.txt');
    await writeFile(secretTxt, 'TOP-SECRET-OUTSIDE\n');
    const fileUrl = (p: string) => `file://${p}`;
    const html = await file(
      'links.html',
      `<!doctype html><html><head><link rel="stylesheet" href="${canaryUrl}/style.css"></head><body><p>VISIBLE-HTML</p>` +
        `<img src="${fileUrl(secretPng)}"><img src="${canaryUrl}/img.png"><iframe src="file:///etc/passwd"></iframe>` +
        `<iframe src="${fileUrl(secretTxt)}"></iframe><object data="file:///etc/passwd" type="text/plain"></object></body></html>`,
    );
    const odt = await file(
      'links.odt',
      await makeOdt(
        '<text:p>VISIBLE-ODT</text:p>' +
          '<text:section text:name="s1"><text:section-source xlink:href="file:///etc/passwd" xlink:type="simple" text:filter-name="Text"/></text:section>' +
          `<text:section text:name="s2"><text:section-source xlink:href="${fileUrl(secretTxt)}" xlink:type="simple" text:filter-name="Text"/></text:section>` +
          `<text:p><draw:frame draw:name="i1" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${fileUrl(secretPng)}" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame>` +
          `<draw:frame draw:name="i2" svg:width="2cm" svg:height="2cm"><draw:image xlink:href="${canaryUrl}/odt.png" xlink:type="simple" xlink:show="embed" xlink:actuate="onLoad"/></draw:frame></text:p>`,
      ),
    );
    const field = (instr: string) =>
      `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> ${escapeXml(instr)} </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>`;
    const docx = await file(
      'links.docx',
      await makeDocx(['VISIBLE-DOCX'], {
        extraBody: `${field('INCLUDETEXT "/etc/passwd"')}${field(`INCLUDETEXT "${secretTxt}"`)}${field(`INCLUDEPICTURE "${secretPng}" \\d`)}<w:altChunk r:id="rIdChunk"/>`,
        relationships: `<Relationship Id="rIdChunk" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk" Target="file:///etc/passwd" TargetMode="External"/>`,
      }),
    );
    const passwd = await readFile('/etc/passwd', 'utf8');
    const converted = await Promise.all([
      repo.convertDocumentToPdf(html, await outDir('html'), 'html'),
      repo.convertDocumentToPdf(odt, await outDir('odt'), 'odt'),
      repo.convertDocumentToPdf(docx, await outDir('docx-links'), 'docx'),
    ]);
    for (const [pdf, marker] of converted.map((p, i) => [p, ['VISIBLE-HTML', 'VISIBLE-ODT', 'VISIBLE-DOCX'][i]] as const)) {
      const text = await pdfText(pdf.path);
      expect(text).toContain(marker);
      expect(text).not.toContain('TOP-SECRET-OUTSIDE');
      expect(text).not.toContain(passwd.split('\n')[0]); // root:x:0:0:…
      expect(await pdfImages(pdf.path)).not.toContain('97x53');
    }
    expect(canaryHits).toBe(0);
  }, 300_000);

  it('a zip-bomb .docx and a truncated one are refused before LibreOffice runs', async () => {
    const out = await outDir('bomb');
    const bomb = await file('bomb.docx', await zipBombDocx(150));
    const err = await mediaError(repo.convertDocumentToPdf(bomb, out, 'docx'), 'unsupported_input');
    expect(err.message).toBe('The document expands to more than 64 MB: it is refused as a zip bomb.');
    const cut = await file('cut.docx', (await makeDocx(['Hello'])).subarray(0, 400));
    await mediaError(repo.convertDocumentToPdf(cut, out, 'docx'), 'unsupported_input');
    await mediaError(repo.convertDocumentToPdf(await file('x.pdf', makePdf(1)), out, 'pdf'), 'unsupported_input');
    expect(await readdir(out)).toEqual([]);
  });

  it('past the time limit LibreOffice is killed with its whole process group: timeout, nothing left', async () => {
    const quick = new MediaEngine({ documentTimeLimitMs: 1500 });
    // Thousands of pages to lay out: no machine converts it within the limit (a one-line document
    // sometimes did, on a quiet machine, and the limit was never reached).
    const docx = await file('slow.docx', await makeDocx(Array.from({ length: 20_000 }, (_, i) => `Paragraph ${i}: ${'lorem ipsum dolor sit amet '.repeat(8)}`)));
    const out = await outDir('timeout');
    const err = await mediaError(quick.convertDocumentToPdf(docx, out, 'docx'), 'timeout');
    expect(err.message).toBe('Processing exceeded the time limit of 1.5 s.');
    expect(await readdir(out)).toEqual([]);
    expect(await processesMentioning(out)).toEqual([]);
  }, 60_000);

  it('truncating the file after the probe: a clear unsupported_input', async () => {
    const docx = await file('shrunk.docx', await makeDocx(['Hello']));
    await truncate(docx, 100);
    await mediaError(repo.convertDocumentToPdf(docx, await outDir('shrunk'), 'docx'), 'unsupported_input');
  });
});

/** Processes whose command line mentions `text` (a LibreOffice still running on that work dir). */
async function processesMentioning(text: string): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await readdir('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (cmdline.includes(text)) found.push(`${pid}: ${cmdline.replace(/\0/g, ' ')}`);
  }
  return found;
}
