import { rm } from 'node:fs/promises';
import { Deadline } from './deadline';
import { DocumentEngine, type DocumentToolPaths } from './documents';
import { MediaError, toMediaError } from './media.errors';
import { checkInput, outputPath } from './media-files';
import { DOCUMENT_TARGETS, type DocumentTarget, type MediaOutput, type OfficeFormat, OFFICE_FORMATS, type ProbeResult, type RenderPdfPageOptions } from './media.types';

/** Documents: what a file is by its bytes, Office and text to PDF with LibreOffice, a PDF page with poppler (documents.ts). */
export class DocumentAdapter {
  private readonly engine: DocumentEngine;

  constructor(
    programs: DocumentToolPaths,
    private readonly timeLimitMs: number,
    maxOutputPixels: number,
  ) {
    this.engine = new DocumentEngine(programs, maxOutputPixels);
  }

  /** PDF, Office, OpenDocument and RTF by their magic bytes (a PDF with its page count); undefined for anything else. */
  identify(abs: string, deadline: Deadline): Promise<ProbeResult | undefined> {
    return this.engine.identify(abs, deadline);
  }

  /** UTF-8 text (`txt`, or `html` when it starts like a page), asked once nothing else matched. */
  identifyText(abs: string): Promise<ProbeResult | undefined> {
    return this.engine.identifyText(abs);
  }

  /**
   * An office or text document (`format`: the probe's name for it, one of OFFICE_FORMATS) to PDF
   * with LibreOffice, sandboxed and time-limited (documents.ts). `pages`: the PDF's page count.
   */
  convertToPdf(input: string, outDir: string, format: string): Promise<MediaOutput> {
    return this.convert(input, outDir, format, 'pdf');
  }

  /**
   * An office or text document to `target`: pdf from any, another format only within the input's
   * kind (DOCUMENT_TARGETS: text, spreadsheet, presentation), else `invalid_option` naming the ones that fit.
   */
  async convert(input: string, outDir: string, format: string, target: DocumentTarget): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    if (!(OFFICE_FORMATS as readonly string[]).includes(format)) {
      throw new MediaError(
        'unsupported_input',
        `Documents in ${format.toUpperCase()} format cannot be converted to ${target.toUpperCase()}; supported: ${OFFICE_FORMATS.join(', ')}.`,
      );
    }
    checkTarget(format as OfficeFormat, target);
    const abs = await checkInput(input);
    const out = await outputPath(outDir, target, abs);
    try {
      return await this.engine.convert(abs, format as OfficeFormat, target, out, deadline);
    } catch (err) {
      await rm(out, { force: true });
      throw toMediaError(err, 'The document could not be converted.');
    }
  }

  /**
   * One page of a PDF as png, jpeg or webp with poppler's pdftoppm. `pages`: the PDF's page count
   * when the probe has it (else read here). Over DOCUMENT_LIMITS.maxPdfPages pages: `unsupported_input`;
   * a page past the last: `invalid_option`.
   */
  async renderPage(input: string, outDir: string, opts: RenderPdfPageOptions, pages?: number): Promise<MediaOutput> {
    const deadline = new Deadline(this.timeLimitMs);
    const abs = await checkInput(input);
    const count = pages ?? (await this.engine.pageCount(abs, deadline));
    const out = await outputPath(outDir, opts.format === 'jpeg' ? 'jpg' : opts.format, abs);
    try {
      return await this.engine.renderPage(abs, count, opts, out, deadline);
    } catch (err) {
      await rm(out, { force: true });
      throw toMediaError(err, 'The PDF page could not be rendered.');
    }
  }
}

/** `invalid_option` unless `target` is pdf or a format of the input's own kind (a spreadsheet has no docx). */
export function checkTarget(format: OfficeFormat, target: DocumentTarget): void {
  if (target === 'pdf') return;
  const [kind, spec] = Object.entries(DOCUMENT_TARGETS).find(([, k]) => k.inputs.includes(format))!;
  if (spec.outputs.includes(target)) return;
  const article = kind === 'text' ? 'a text document' : `a ${kind}`;
  throw new MediaError('invalid_option', `format ${target} does not fit ${article} (${format}): choose pdf, ${spec.outputs.join(', ')}.`);
}
