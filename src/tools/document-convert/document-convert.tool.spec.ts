import { writeFile } from 'node:fs/promises';
import { makePdf, pdfInfo, pdfText } from '../../../test/support/document-fixtures';
import { MediaError } from '../../media/media.errors';
import { ToolTestKit } from '../tool-testing';
import { documentConvert } from './document-convert.tool';

const kit = new ToolTestKit();
beforeAll(() => kit.setUp());
afterAll(() => kit.tearDown());

describe('document-convert', () => {
  it('is listed as a document tool for documents:write at 2 credits, PDF out', () => {
    expect(documentConvert).toMatchObject({
      slug: 'document-convert',
      kind: 'document',
      queue: 'document-standard-queue',
      scope: 'documents:write',
      cost: 2,
      optionsSchema: 'DocumentConvertOptions',
    });
    expect(documentConvert.outputFormats).toEqual(['pdf', 'docx', 'odt', 'rtf', 'txt', 'html', 'xlsx', 'ods', 'csv', 'pptx', 'odp']);
  });

  it('converts an HTML page to a PDF and reports its page count', async () => {
    const html = kit.path('page.html');
    await writeFile(html, '<!doctype html><html><body><h1>Quarterly report</h1><p>Revenue went up.</p></body></html>');
    const { output, message, details } = await kit.run(documentConvert, html, { format: 'pdf' });
    expect(output).toMatchObject({ format: 'pdf', pages: 1 });
    expect(message).toBe('Converted HTML to PDF (1 page).');
    expect(details).toEqual({ pages: 1 });
    expect((await pdfInfo(output.path)).Pages).toBe('1');
    expect(await pdfText(output.path)).toContain('Revenue went up.');
  }, 180_000);

  it('refuses a PDF (already one) as unsupported_input', async () => {
    const pdf = kit.path('in.pdf');
    await writeFile(pdf, makePdf(1));
    const err = await kit.run(documentConvert, pdf, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({ code: 'unsupported_input' });
  });
});
