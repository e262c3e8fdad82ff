import { cutFileName, sanitizeFileName } from './file-names';
import { servedContentType } from './file-sniffer';
import { safeFileName } from '../storage/content-disposition';

describe('file names', () => {
  it.each([
    ['photo\u202Egnp.exe', 'photognp.exe'],
    ['\u2066a\u2069\u200Eb\u200F\u061C.txt', 'ab.txt'],
    ['\uFEFFin\u200Bvo\u200Cice\u200D\u2060.pdf', 'invoice.pdf'],
    ['\u200B\u200C\u200D\u2060\uFEFF', 'file'],
    ['report\u200B.pdf\uFEFF', 'report.pdf'],
    ['../../etc/passwd', 'passwd'],
    ['C:\\Users\\x\\report.pdf', 'report.pdf'],
    ['...hidden', 'hidden'],
    ['a<b>:c"|?*.txt', 'a_b__c____.txt'],
    ['\u202E', 'file'],
    ['', 'file'],
  ])('sanitizeFileName(%j) is %j', (given, stored) => {
    expect(sanitizeFileName(given)).toBe(stored);
  });

  it('a long name keeps its extension and never half a surrogate pair', () => {
    expect(sanitizeFileName(`${'a'.repeat(396)}.png`)).toBe(`${'a'.repeat(251)}.png`);
    const astral = sanitizeFileName(`${'\u{1F600}'.repeat(300)}.png`);
    expect(Array.from(astral)).toHaveLength(255);
    expect(astral.endsWith('\u{1F600}.png')).toBe(true);
    // A "extension" longer than 16 characters is part of the name.
    expect(cutFileName(`${'a'.repeat(300)}.${'b'.repeat(20)}`)).toBe('a'.repeat(255));
  });

  it('the names sent back follow the same rules', () => {
    expect(safeFileName('photo\u202Egnp.exe')).toBe('photognp.exe');
    // Names stored before the zero-width rule are sent back without them.
    expect(safeFileName('pay\u200Bslip\uFEFF.pdf')).toBe('payslip.pdf');
    expect(safeFileName(`${'é'.repeat(300)}.jpeg`)).toBe(`${'é'.repeat(250)}.jpeg`);
  });
});

describe('servedContentType', () => {
  it.each([
    'text/html',
    'TEXT/HTML; charset=utf-8',
    'text/xml',
    'application/xml',
    'application/xhtml+xml',
    'image/svg+xml',
    'text/vnd.evil+xml',
    'application/rss+xml',
    'text/xml-external-parsed-entity',
    'application/xml-dtd',
    'text/javascript',
    'application/javascript',
    'text/xsl',
    '',
    null,
  ])('%j is served as application/octet-stream', (mime) => {
    expect(servedContentType(mime)).toBe('application/octet-stream');
  });

  it.each(['image/png', 'text/plain', 'text/csv', 'application/pdf', 'video/mp4', 'application/json'])('%s is served as itself', (mime) => {
    expect(servedContentType(mime)).toBe(mime);
  });
});
