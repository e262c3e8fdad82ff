import { ZipArchive } from 'archiver';
import { execFile } from 'node:child_process';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';

/** Documents made in the tests (no downloads): PDFs written by hand, Office/OpenDocument files zipped with archiver. */

const run = promisify(execFile);

export interface PdfOptions {
  /** Points, default US Letter 612×792. */
  width?: number;
  height?: number;
  /**
   * Every page draws the same content stream (the page-bomb shape: 10 000 pages cost a few bytes each).
   * Otherwise page n fills a rectangle of `colors[n-1]` (RGB 0..1) and writes "Page n".
   */
  shared?: boolean;
  colors?: [number, number, number][];
}

/** A valid PDF of `pages` pages with a correct cross-reference table (so poppler does not need to repair it). */
export function makePdf(pages: number, opts: PdfOptions = {}): Buffer {
  const { width = 612, height = 792, shared = false, colors = [] } = opts;
  const objects: string[] = []; // objects[i] is object i+1
  const add = (body: string) => objects.push(body);
  const firstPage = 4;
  // Objects: 1 catalog, 2 page tree, 3 font, then the pages, then the content streams (one when shared).
  const contentOf = (n: number) => firstPage + pages + (shared ? 0 : n - 1);
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${firstPage + i} 0 R`).join(' ')}] >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let n = 1; n <= pages; n++) {
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contentOf(n)} 0 R >>`);
  }
  const stream = (text: string) => `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`;
  if (shared) add(stream(`BT /F1 24 Tf 72 ${height - 72} Td (Same page) Tj ET`));
  else
    for (let n = 1; n <= pages; n++) {
      const [r, g, b] = colors[n - 1] ?? [1, 1, 1];
      add(stream(`${r} ${g} ${b} rg 0 0 ${width} ${height} re f 0 0 0 rg BT /F1 36 Tf 72 ${height - 108} Td (Page ${n}) Tj ET`));
    }
  let body = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((obj, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${obj}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface ZipPart {
  name: string;
  data: string | Buffer | Readable;
  store?: boolean;
}

export async function zipParts(parts: ZipPart[]): Promise<Buffer> {
  const zip = new ZipArchive({ zlib: { level: 9 } });
  const chunks: Buffer[] = [];
  zip.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    zip.on('end', () => resolve());
    zip.on('error', reject);
  });
  for (const part of parts) zip.append(part.data, { name: part.name, store: part.store });
  await zip.finalize();
  await done;
  return Buffer.concat(chunks);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface DocxOptions {
  /** Raw WordprocessingML put in the body after the paragraphs (fields, altChunks…). */
  extraBody?: string;
  /** Raw `<Relationship>` elements of word/document.xml. */
  relationships?: string;
  /** Replaces word/document.xml by this stream (the zip bomb). */
  documentStream?: Readable;
}

/** A minimal .docx (WordprocessingML) with one paragraph per line. */
export function makeDocx(paragraphs: string[], opts: DocxOptions = {}): Promise<Buffer> {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(p)}</w:t></w:r></w:p>`).join('');
  return zipParts([
    {
      name: '[Content_Types].xml',
      data:
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    },
    {
      name: '_rels/.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${R}/officeDocument" Target="word/document.xml"/></Relationships>`,
    },
    {
      name: 'word/_rels/document.xml.rels',
      data: `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${opts.relationships ?? ''}</Relationships>`,
    },
    {
      name: 'word/document.xml',
      data:
        opts.documentStream ??
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}" xmlns:r="${R}"><w:body>${body}${opts.extraBody ?? ''}</w:body></w:document>`,
    },
  ]);
}

/**
 * A zip-bomb .docx: word/document.xml holds `megabytes` MB of spaces inside a comment, which
 * deflate packs about 1000:1 (150 MB → some 150 kB).
 */
export function zipBombDocx(megabytes = 150): Promise<Buffer> {
  const block = Buffer.alloc(1024 * 1024, 0x20);
  let sent = 0;
  const xml = Readable.from(
    (function* () {
      yield Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>bomb</w:t></w:r></w:p><!--`);
      while (sent++ < megabytes) yield block;
      yield Buffer.from('--></w:body></w:document>');
    })(),
  );
  return makeDocx([], { documentStream: xml });
}

/** A minimal .odt (OpenDocument text) whose office:text holds `bodyXml`. */
export function makeOdt(bodyXml: string): Promise<Buffer> {
  const ns =
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ' +
    'xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"';
  return zipParts([
    { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
    {
      name: 'content.xml',
      data: `<?xml version="1.0" encoding="UTF-8"?><office:document-content ${ns} office:version="1.2"><office:body><office:text>${bodyXml}</office:text></office:body></office:document-content>`,
    },
    {
      name: 'META-INF/manifest.xml',
      data:
        '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">' +
        '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>',
    },
  ]);
}

export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!);
}

/** pdftotext of a PDF file (poppler). */
export async function pdfText(path: string): Promise<string> {
  return (await run('pdftotext', ['-layout', path, '-'])).stdout;
}

/** pdfinfo's fields (`Pages`, `Page size`…). */
export async function pdfInfo(path: string): Promise<Record<string, string>> {
  const { stdout } = await run('pdfinfo', [path]);
  return Object.fromEntries(
    stdout.split('\n').flatMap((line) => {
      const m = /^([^:]+):\s*(.*)$/.exec(line);
      return m ? [[m[1].trim(), m[2].trim()]] : [];
    }),
  );
}

/** The images a PDF embeds (`pdfimages -list`): width×height of each. */
export async function pdfImages(path: string): Promise<string[]> {
  const { stdout } = await run('pdfimages', ['-list', path]);
  return stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols[2] === 'image')
    .map((cols) => `${cols[3]}x${cols[4]}`);
}
