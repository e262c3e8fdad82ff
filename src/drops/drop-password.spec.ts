import { hashPassword, SCRYPT_AT_ONCE, SCRYPT_WAITING, verifyPassword } from './drop-password';

describe('drop passwords', () => {
  it('stores a salted scrypt hash that only the password matches', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b); // salted
    expect(a).not.toContain('correct horse');
    await expect(verifyPassword('correct horse', a)).resolves.toBe(true);
    await expect(verifyPassword('correct hors', a)).resolves.toBe(false);
    await expect(verifyPassword('correct horse', 'plain')).resolves.toBe(false);
  });
});

describe('password checks in turn', () => {
  it(`runs at most ${SCRYPT_AT_ONCE} scrypt at a time with ${SCRYPT_WAITING} waiting; the next check is 429 rate_limited with Retry-After`, async () => {
    const stored = await hashPassword('correct horse');
    const checks = Array.from({ length: SCRYPT_AT_ONCE + SCRYPT_WAITING + 2 }, (_, i) => verifyPassword(i === 0 ? 'correct horse' : `guess ${i}`, stored));
    const settled = await Promise.allSettled(checks);
    const refused = settled.filter((s) => s.status === 'rejected').map((s) => s.reason);
    expect(refused).toHaveLength(2);
    for (const err of refused) {
      expect(err).toMatchObject({ code: 'rate_limited', message: 'Too many drop passwords are being checked right now; retry in 1 s.' });
      expect(err.retryAfterSeconds ?? err.headers?.['Retry-After']).toBe(1);
    }
    expect(settled[0]).toEqual({ status: 'fulfilled', value: true });
    expect(settled.slice(1, SCRYPT_AT_ONCE + SCRYPT_WAITING).every((s) => s.status === 'fulfilled' && s.value === false)).toBe(true);
    // The queue drained: a later check runs.
    await expect(verifyPassword('correct horse', stored)).resolves.toBe(true);
  });
});
