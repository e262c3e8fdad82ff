import { planConversion } from './conversion-plan';

describe('planConversion for documents (autoConvertTo pdf)', () => {
  const drop = { autoConvertTo: 'pdf', autoCompress: false };

  it('converts office and text documents with document-convert', () => {
    for (const mime of [
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.oasis.opendocument.spreadsheet',
      'application/rtf',
      'text/plain',
      'text/html',
    ]) {
      expect(planConversion(drop, 'document', mime)).toMatchObject({ tool: { slug: 'document-convert' }, options: { format: 'pdf' } });
    }
  });

  it('keeps a PDF, an archive, bytes of no known type, and files of other kinds as sent', () => {
    expect(planConversion(drop, 'document', 'application/pdf')).toBeUndefined();
    expect(planConversion(drop, 'document', 'application/zip')).toBeUndefined();
    expect(planConversion(drop, 'document', 'application/octet-stream')).toBeUndefined();
    expect(planConversion(drop, 'image', 'image/png')).toBeUndefined();
    expect(planConversion({ autoConvertTo: null, autoCompress: true }, 'document', 'text/plain')).toBeUndefined();
  });
});
