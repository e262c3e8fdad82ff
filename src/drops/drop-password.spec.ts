import { hashPassword, verifyPassword } from './drop-password';

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
