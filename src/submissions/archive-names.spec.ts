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

describe('ArchiveNames.nextIn', () => {
  it("de-duplicates within a folder only: an output's folder does not take the names of the root or of another folder", () => {
    const names = new ArchiveNames();
    expect([
      names.next('photo.png'),
      names.nextIn('thumb', 'photo.webp'),
      names.nextIn('webp', 'photo.webp'),
      names.nextIn('thumb', 'photo.webp'),
      names.next('photo.webp'),
    ]).toEqual(['photo.png', 'thumb/photo.webp', 'webp/photo.webp', 'thumb/photo (2).webp', 'photo.webp']);
  });
});
