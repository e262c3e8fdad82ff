import { ArchiveNames } from './archive-names';

describe('ArchiveNames', () => {
  it('keeps the first name and numbers the repeats before the extension, case-insensitively', () => {
    const names = new ArchiveNames();
    expect(['a.png', 'a.png', 'A.PNG', 'a (2).png', 'b', 'b', '.env'].map((n) => names.next(n))).toEqual([
      'a.png',
      'a (2).png',
      'A (3).PNG',
      'a (2) (2).png',
      'b',
      'b (2)',
      '.env',
    ]);
  });
});
