import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { makeDocx, makePdf } from '../../../test/support/document-fixtures';
import { MediaError } from '../../media/media.errors';
import { ToolTestKit } from '../tool-testing';
import { pdfRender } from './pdf-render.tool';

const kit = new ToolTestKit();
let pdf: string;
beforeAll(async () => {
  await kit.setUp();
  await writeFile(
    (pdf = kit.path('two.pdf')),
    makePdf(2, {
      colors: [
        [1, 1, 1],
        [1, 0, 0],
      ],
    }),
  );
});
afterAll(() => kit.tearDown());

describe('pdf-render', () => {
  it('is listed as a document tool for documents:write at 1 credit', () => {
    expect(pdfRender).toMatchObject({
      slug: 'pdf-render',
      kind: 'document',
      queue: 'document-standard-queue',
      scope: 'documents:write',
      cost: 1,
      optionsSchema: 'PdfRenderOptions',
    });
    expect(pdfRender.outputFormats).toEqual(['png', 'webp', 'jpeg']);
  });

  it('width and dpi together are refused at submission', () => {
    expect(pdfRender.extraCheck!({ width: 100, dpi: 72 })).toEqual({ path: 'body/options/dpi', message: 'give width or dpi, not both' });
    expect(pdfRender.extraCheck!({ width: 100 })).toBeUndefined();
  });

  it('renders page 1 by default as PNG at 150 dpi; page 2 as webp at a width', async () => {
    const first = await kit.run(pdfRender, pdf, {});
    expect(first.output).toMatchObject({ format: 'png', width: 1275, height: 1650, pages: 2 });
    expect(first.message).toBe('Rendered page 1 of 2 as png.');
    expect(first.details).toEqual({ pages: 2 });
    const second = await kit.run(pdfRender, pdf, { page: 2, format: 'webp', width: 100 });
    const { data, info } = await sharp(second.output.path).raw().toBuffer({ resolveWithObject: true });
    expect(info).toMatchObject({ width: 100, height: 130 });
    expect(data[0]).toBeGreaterThan(200); // page 2 is red
    expect(data[1]).toBeLessThan(50);
  });

  it('a page past the last is invalid_option; a .docx is unsupported_input', async () => {
    await expect(kit.run(pdfRender, pdf, { page: 3 })).rejects.toMatchObject({ code: 'invalid_option', message: 'page 3 does not exist: the PDF has 2 pages.' });
    const docx = kit.path('a.docx');
    await writeFile(docx, await makeDocx(['Hello']));
    const err = await kit.run(pdfRender, docx, {}).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MediaError);
    expect(err).toMatchObject({ code: 'unsupported_input', message: 'pdf-render needs a PDF; the input is DOCX.' });
  });
});
