import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { Deadline } from './deadline';
import { MediaError } from './media.errors';
import { checkPlannedOutput } from './output-size';
import { type DocumentTarget, DOCUMENT_LIMITS, type MediaOutput, type OfficeFormat, type ProbeResult, type RenderPdfPageOptions } from './media.types';
import { runProcessGroup } from './process-group';
import { checkZippedDocument } from './zip-check';

/** file-type's extensions of the documents the probe names (the rest of file-type's answers are not documents we read). */
const MAGIC_DOCUMENTS = new Set(['pdf', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'rtf']);
const ZIPPED = new Set(['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp']);
/** What the text sniff reads: enough to tell text from binary and HTML from plain text. */
const TEXT_SAMPLE = 64 * 1024;
/** A closed local port: LibreOffice's proxy, so no document can reach the network through it. */
const NO_PROXY = 'http://127.0.0.1:9';

/**
 * Import filters chosen rather than detected: HTML opened as a Writer document (Writer/Web's own PDF
 * export writes blank pages), text read as UTF-8 whatever the locale.
 */
const IMPORT_FILTERS: Partial<Record<OfficeFormat, string>> = { html: 'HTML (StarWriter)', txt: 'Text (encoded):UTF8,LF,,,' };

/**
 * `--convert-to` per target, export filter named (a bare extension lets LibreOffice guess, and
 * guesses Writer/Web for HTML). Text as UTF-8; CSV comma-separated, `"`-quoted, UTF-8 (76), the first sheet.
 */
const EXPORT_FILTERS: Record<Exclude<DocumentTarget, 'pdf'>, string> = {
  docx: 'docx:MS Word 2007 XML',
  odt: 'odt:writer8',
  rtf: 'rtf:Rich Text Format',
  txt: 'txt:Text (encoded):UTF8',
  html: 'html:HTML (StarWriter)',
  xlsx: 'xlsx:Calc MS Excel 2007 XML',
  ods: 'ods:calc8',
  csv: 'csv:Text - txt - csv (StarCalc):44,34,76',
  pptx: 'pptx:Impress MS PowerPoint 2007 XML',
  odp: 'odp:impress8',
};
/** Targets file-type knows by their bytes: the written file is checked to be one. */
const MAGIC_TARGETS = new Set<DocumentTarget>(['docx', 'odt', 'rtf', 'xlsx', 'ods', 'pptx', 'odp']);

export interface DocumentToolPaths {
  soffice: string;
  pdftoppm: string;
  pdfinfo: string;
}

/**
 * Documents for the media layer (MediaEngine delegates here): what a document is, LibreOffice
 * conversions to PDF, one PDF page to an image with poppler. Every program runs in its own process
 * group, killed whole at the time limit (process-group.ts).
 *
 * LibreOffice runs sandboxed by configuration, for each conversion: a fresh profile in a private work
 * directory inside the job's output directory, holding a copy of the input alone (a relative link finds
 * nothing else), macros disabled, links not updated, external (linked) resources blocked
 * (BlockUntrustedRefererLinks: an `<img src="file:///…">` or a linked section is not loaded), every
 * protocol sent to a closed local proxy (no network), and an environment with nothing of the worker's.
 */
export class DocumentEngine {
  constructor(
    private readonly paths: DocumentToolPaths,
    private readonly maxOutputPixels: number,
  ) {}

  /** A document the probe recognises by its magic bytes (PDF, Office, OpenDocument, RTF), with a PDF's page count. */
  async identify(abs: string, deadline: Deadline): Promise<ProbeResult | undefined> {
    const type = await fileTypeFromFile(abs).catch(() => undefined);
    if (!type || !MAGIC_DOCUMENTS.has(type.ext)) return undefined;
    if (type.ext !== 'pdf') return { kind: 'document', format: type.ext };
    const pages = await this.pageCount(abs, deadline).catch(() => undefined);
    return { kind: 'document', format: 'pdf', ...(pages !== undefined ? { pages } : {}) };
  }

  /** Text with no magic bytes: valid UTF-8 without NUL bytes; `html` when it starts like a page. */
  async identifyText(abs: string): Promise<ProbeResult | undefined> {
    const handle = await open(abs, 'r');
    let sample: Buffer;
    try {
      const buffer = Buffer.alloc(TEXT_SAMPLE);
      const { bytesRead } = await handle.read(buffer, 0, TEXT_SAMPLE, 0);
      // A full sample may end inside a multi-byte character: leave its last 3 bytes out of the check.
      sample = buffer.subarray(0, bytesRead === TEXT_SAMPLE ? bytesRead - 3 : bytesRead);
    } finally {
      await handle.close();
    }
    if (sample.length === 0 || sample.includes(0)) return undefined;
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(sample);
    } catch {
      return undefined;
    }
    const html = /^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text.replace(/^\uFEFF/, ''));
    return { kind: 'document', format: html ? 'html' : 'txt' };
  }

  /** `pdfinfo`'s page count; a file poppler cannot read is `unsupported_input`. */
  async pageCount(abs: string, deadline: Deadline): Promise<number> {
    const out = await this.pdfinfo(abs, deadline);
    const pages = Number(/^Pages:\s+(\d+)/m.exec(out)?.[1]);
    if (!Number.isInteger(pages) || pages < 1) throw new MediaError('unsupported_input', 'The PDF has no pages, or is corrupt.', out);
    return pages;
  }

  /** LibreOffice: `format` (from the probe) to a PDF written at `out` (see convert). */
  convertToPdf(abs: string, format: OfficeFormat, out: string, deadline: Deadline): Promise<MediaOutput> {
    return this.convert(abs, format, 'pdf', out, deadline);
  }

  /**
   * LibreOffice: `format` (from the probe) to `target`, written at `out`; the caller has checked the
   * target fits the input's kind. A PDF's pages are counted; another target must be what it says
   * (its magic bytes, or non-empty text). The work directory is a sibling of `out` and is removed whatever happens.
   */
  async convert(abs: string, format: OfficeFormat, target: DocumentTarget, out: string, deadline: Deadline): Promise<MediaOutput> {
    if (ZIPPED.has(format)) await checkZippedDocument(abs, deadline);
    const work = join(dirname(out), `.soffice-${randomBytes(6).toString('hex')}`);
    try {
      const dirs = { profile: join(work, 'profile'), input: join(work, 'in'), output: join(work, 'out'), home: join(work, 'home'), tmp: join(work, 'tmp') };
      for (const dir of [join(dirs.profile, 'user'), dirs.input, dirs.output, dirs.home, dirs.tmp]) await mkdir(dir, { recursive: true });
      await writeFile(join(dirs.profile, 'user', 'registrymodifications.xcu'), LOCKED_DOWN_PROFILE);
      // LibreOffice picks its import filter by the extension.
      const source = join(dirs.input, `document.${format}`);
      await link(abs, source).catch(() => copyFile(abs, source));
      const args = [
        '--headless',
        '--invisible',
        '--nologo',
        '--nodefault',
        '--nolockcheck',
        '--norestore',
        '--nofirststartwizard',
        `-env:UserInstallation=${pathToFileURL(dirs.profile).href}`,
        ...(IMPORT_FILTERS[format] ? [`--infilter=${IMPORT_FILTERS[format]}`] : []),
        '--convert-to',
        target !== 'pdf' ? EXPORT_FILTERS[target] : format === 'html' || format === 'txt' ? 'pdf:writer_pdf_Export' : 'pdf',
        '--outdir',
        dirs.output,
        source,
      ];
      const run = await runProcessGroup(this.paths.soffice, args, { env: this.sofficeEnv(dirs.home, dirs.tmp), cwd: dirs.input, deadline, name: 'LibreOffice' });
      // An HTML export writes its images beside it: the document is the one file of the target's extension.
      const written = (await readdir(dirs.output)).find((name) => name.endsWith(`.${target}`));
      if (!written) {
        // `--convert-to` exits 0 even when it could not load the file ("Error: source file could not be loaded").
        throw new MediaError(
          'unsupported_input',
          `The ${format.toUpperCase()} document could not be read: it is corrupt, truncated or not a ${format} file.`,
          tail(run.stderr || run.stdout),
        );
      }
      if (target !== 'pdf') {
        await this.verifyWritten(join(dirs.output, written), target);
        await rename(join(dirs.output, written), out);
        return { path: out, format: target, size: (await stat(out)).size };
      }
      const pages = await this.pageCount(join(dirs.output, written), deadline).catch((err: unknown) => {
        throw new MediaError('processing_failed', 'The PDF LibreOffice wrote could not be verified.', (err as Error).message);
      });
      await rename(join(dirs.output, written), out);
      return { path: out, format: 'pdf', size: (await stat(out)).size, pages };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /**
   * One page (1-based) of a PDF with `pages` pages to `out` (png, jpeg: pdftoppm writes them; webp:
   * pdftoppm's PNG re-encoded by sharp). The size is checked from the page's box before rendering.
   */
  async renderPage(abs: string, pages: number, opts: RenderPdfPageOptions, out: string, deadline: Deadline): Promise<MediaOutput> {
    if (pages > DOCUMENT_LIMITS.maxPdfPages) {
      throw new MediaError('unsupported_input', `The PDF has ${pages} pages, which exceeds the limit of ${DOCUMENT_LIMITS.maxPdfPages}.`);
    }
    if (opts.page > pages) throw new MediaError('invalid_option', `page ${opts.page} does not exist: the PDF has ${pages} page${pages === 1 ? '' : 's'}.`);
    const box = await this.pageBox(abs, opts.page, deadline);
    const dpi = opts.dpi ?? 150;
    const size = opts.width
      ? { width: opts.width, height: Math.ceil((opts.width * box.height) / box.width) }
      : { width: Math.ceil((box.width * dpi) / 72), height: Math.ceil((box.height * dpi) / 72) };
    // pdftoppm (and sharp for webp) allocate the whole page: a smaller dpi or width would do.
    checkPlannedOutput(`Page ${opts.page}`, size, this.maxOutputPixels, { format: opts.format });
    const work = join(dirname(out), `.pdftoppm-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(work, { recursive: true });
      const jpeg = opts.format === 'jpeg';
      const scale = opts.width ? ['-scale-to-x', String(opts.width), '-scale-to-y', '-1'] : ['-r', String(dpi)];
      const args = ['-f', String(opts.page), '-l', String(opts.page), '-singlefile', ...(jpeg ? ['-jpeg', '-jpegopt', 'quality=85'] : ['-png']), ...scale, abs, join(work, 'page')];
      const run = await runProcessGroup(this.paths.pdftoppm, args, { env: { PATH: process.env.PATH ?? '' }, deadline, name: 'pdftoppm' });
      const rendered = join(work, jpeg ? 'page.jpg' : 'page.png');
      const exists = await stat(rendered).then(
        (s) => s.size > 0,
        () => false,
      );
      if (run.code !== 0 || !exists) throw new MediaError('unsupported_input', 'The PDF page could not be rendered: the PDF is corrupt or truncated.', tail(run.stderr));
      if (opts.format === 'webp') {
        const info = await sharp(rendered)
          .timeout({ seconds: Math.ceil(deadline.require() / 1000) })
          .webp({ quality: 80 })
          .toFile(out);
        return { path: out, format: 'webp', size: info.size, width: info.width, height: info.height, pages };
      }
      await rename(rendered, out);
      const meta = await sharp(out).metadata();
      return { path: out, format: opts.format, size: (await stat(out)).size, width: meta.width, height: meta.height, pages };
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  /** A written non-PDF document is the target it claims: its magic bytes, or (txt, html, csv) some text. */
  private async verifyWritten(path: string, target: DocumentTarget): Promise<void> {
    const ok = MAGIC_TARGETS.has(target) ? (await fileTypeFromFile(path).catch(() => undefined))?.ext === target : (await stat(path)).size > 0;
    if (!ok) throw new MediaError('processing_failed', `The ${target.toUpperCase()} file LibreOffice wrote could not be verified.`);
  }

  /** The page's size in points, as displayed (its rotation applied). */
  private async pageBox(abs: string, page: number, deadline: Deadline): Promise<{ width: number; height: number }> {
    const out = await this.pdfinfo(abs, deadline, ['-f', String(page), '-l', String(page)]);
    const size = /^Page\s+\d+\s+size:\s+([\d.]+)\s+x\s+([\d.]+)/m.exec(out);
    const rot = Number(/^Page\s+\d+\s+rot:\s+(\d+)/m.exec(out)?.[1] ?? 0);
    if (!size) throw new MediaError('unsupported_input', `The size of page ${page} could not be read: the PDF is corrupt.`, out);
    const [w, h] = [Number(size[1]), Number(size[2])];
    if (!(w > 0 && h > 0)) throw new MediaError('unsupported_input', `Page ${page} has no area.`, out);
    return rot % 180 === 90 ? { width: h, height: w } : { width: w, height: h };
  }

  private pdfinfo(abs: string, deadline: Deadline, extra: string[] = []): Promise<string> {
    const timeout = deadline.require();
    return new Promise((done, fail) => {
      execFile(this.paths.pdfinfo, [...extra, abs], { timeout, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024, env: { PATH: process.env.PATH ?? '' } }, (err, stdout, stderr) => {
        if (!err) return done(stdout);
        if (err.killed && deadline.remainingMs() < 100) return fail(deadline.error());
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fail(new MediaError('processing_failed', 'pdfinfo is not available on this server.', err.message));
        fail(new MediaError('unsupported_input', 'The PDF is corrupt or truncated.', tail(stderr)));
      });
    });
  }

  /** Nothing of the worker's environment (credentials, proxies): a private home and temp dir, every protocol to a closed proxy. */
  private sofficeEnv(home: string, tmp: string): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      TMPDIR: tmp,
      LANG: 'C.UTF-8',
      SAL_USE_VCLPLUGIN: 'svp',
      http_proxy: NO_PROXY,
      https_proxy: NO_PROXY,
      ftp_proxy: NO_PROXY,
      HTTP_PROXY: NO_PROXY,
      HTTPS_PROXY: NO_PROXY,
      no_proxy: '',
    };
  }
}

/** The profile every conversion starts from (the options are LibreOffice's officecfg names). */
const LOCKED_DOWN_PROFILE = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  // Macros: the highest security level, and execution off altogether.
  ['/org.openoffice.Office.Common/Security/Scripting', 'MacroSecurityLevel', '3'],
  ['/org.openoffice.Office.Common/Security/Scripting', 'DisableMacrosExecution', 'true'],
  // Linked images, sections and objects of a document not in a trusted location are not loaded.
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  // Links and fields are never updated (Writer: 2 = never; Calc: 1 = never).
  ['/org.openoffice.Office.Writer/Content/Update', 'Link', '2'],
  ['/org.openoffice.Office.Writer/Content/Update', 'Field', 'false'],
  ['/org.openoffice.Office.Calc/Content/Update', 'Link', '1'],
  // Every protocol through a manual proxy on a closed local port: no network.
  ['/org.openoffice.Inet/Settings', 'ooInetProxyType', '1'],
  ['/org.openoffice.Inet/Settings', 'ooInetNoProxy', ''],
  ...['HTTP', 'HTTPS', 'FTP'].flatMap((p) => [
    ['/org.openoffice.Inet/Settings', `ooInet${p}ProxyName`, '127.0.0.1'],
    ['/org.openoffice.Inet/Settings', `ooInet${p}ProxyPort`, '9'],
  ]),
]
  .map(([path, name, value]) => `<item oor:path="${path}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`)
  .join('\n')}
</oor:items>
`;

function tail(text: string): string {
  return text.split('\n').filter(Boolean).slice(-20).join('\n');
}
