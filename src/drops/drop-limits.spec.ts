import { checkExtension, checkRoom, isClosedAt, isLateAt, roomLeft } from './drop-limits';

const MB = 1024 * 1024;

describe('drop limits', () => {
  it('allowedExtensions: the name and the sniffed type must both be allowed (spellings of one type count as one)', () => {
    const drop = { allowedExtensions: ['pdf', 'jpg'] };
    expect(() => checkExtension(drop, 'cv.pdf')).not.toThrow();
    expect(() => checkExtension(drop, 'photo.JPEG', { ext: 'jpg', mime: 'image/jpeg' })).not.toThrow();
    expect(() => checkExtension(drop, 'notes.txt')).toThrow(expect.objectContaining({ code: 'kind_not_allowed' }));
    expect(() => checkExtension(drop, 'invoice.pdf', { ext: 'exe', mime: 'application/x-msdownload' })).toThrow(expect.objectContaining({ code: 'kind_not_allowed' }));
    expect(() => checkExtension(drop, 'noext')).toThrow(expect.objectContaining({ code: 'kind_not_allowed' }));
    expect(() => checkExtension({ allowedExtensions: null }, 'anything.exe')).not.toThrow();
  });

  it('late and closed: a grace after expiresAt, closed after it', () => {
    const now = new Date('2026-11-25T12:00:00Z');
    const past = new Date('2026-11-25T11:00:00Z');
    const future = new Date('2026-11-25T13:00:00Z');
    expect(isLateAt({ expiresAt: past }, now)).toBe(true);
    expect(isClosedAt({ expiresAt: past, acceptLateUntil: future }, now)).toBe(false);
    expect(isClosedAt({ expiresAt: past, acceptLateUntil: past }, now)).toBe(true);
    expect(isClosedAt({ expiresAt: past, acceptLateUntil: null }, now)).toBe(true);
    expect(isClosedAt({ expiresAt: future, acceptLateUntil: null }, now)).toBe(false);
  });

  it('room: the count and the total size, with a known size', () => {
    const drop = { maxSubmissions: 2, maxTotalMB: 1, submissionCount: 1, totalBytes: MB / 2 };
    expect(() => checkRoom(drop, MB / 2)).not.toThrow();
    expect(() => checkRoom(drop, MB / 2 + 1)).toThrow(expect.objectContaining({ code: 'drop_full' }));
    expect(() => checkRoom({ ...drop, submissionCount: 2 })).toThrow(expect.objectContaining({ code: 'drop_full' }));
    expect(roomLeft(drop)).toBe(MB / 2);
    expect(roomLeft({ maxTotalMB: null, totalBytes: 5 })).toBe(Infinity);
  });
});
