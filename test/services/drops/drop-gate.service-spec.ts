import { hashPassword } from '../../../src/drops/drop-password';
import { DropGate, WRONG_PASSWORDS_ALLOWED } from '../../../src/drops/drop-gate';
import { DropsModule } from '../../../src/drops/drops.module';
import { newId } from '../../../src/common/ids';
import { newServiceTest, type ServiceTest } from '../service-test';

/** A protected drop's password gate, its wrong tries counted in the real Redis (under this file's prefix). */
describe('DropGate', () => {
  let t: ServiceTest;
  let gate: DropGate;
  let passwordHash: string;

  beforeAll(async () => {
    t = await newServiceTest({ modules: [DropsModule] });
    gate = t.get(DropGate);
    passwordHash = await hashPassword('open sesame');
  });
  afterAll(() => t.close());

  const protectedDrop = () => ({ id: newId('drp'), name: 'Secret drop', passwordHash });
  let address = 0;
  /** An address of its own for each test: the budget across drops is per address. */
  const nextIp = () => `127.0.0.${++address}`;

  it('an open drop admits anyone, with or without a password', async () => {
    const open = { id: newId('drp'), name: 'Open', passwordHash: null };
    await expect(gate.admit(open, { password: undefined, ip: nextIp() })).resolves.toBeUndefined();
    await expect(gate.admit(open, { password: 'anything', ip: nextIp() })).resolves.toBeUndefined();
  });

  it('no password: password_required, naming the drop only', async () => {
    const err = await gate.admit(protectedDrop(), { password: undefined, ip: nextIp() }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'password_required' });
    expect(JSON.stringify(err)).not.toContain(passwordHash);
  });

  it('a wrong password is wrong_password; the right one is admitted', async () => {
    const drop = protectedDrop();
    const ip = nextIp();
    await expect(gate.admit(drop, { password: 'open sesame!', ip })).rejects.toMatchObject({ code: 'wrong_password' });
    await expect(gate.admit(drop, { password: 'open sesame', ip })).resolves.toBeUndefined();
  });

  it('past the wrong tries allowed on one drop, every try is rate_limited, the right password included', async () => {
    const drop = protectedDrop();
    const ip = nextIp();
    for (let i = 0; i < WRONG_PASSWORDS_ALLOWED; i++) await expect(gate.admit(drop, { password: `guess ${i}`, ip })).rejects.toMatchObject({ code: 'wrong_password' });
    const err = await gate.admit(drop, { password: 'open sesame', ip }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'rate_limited' });
    expect((err as { members?: { retryAfterSeconds?: number } }).members?.retryAfterSeconds ?? (err as { retryAfterSeconds?: number }).retryAfterSeconds).toBeGreaterThan(0);
  });

  it("one address's spent budget leaves another address, and another drop, alone", async () => {
    const drop = protectedDrop();
    const ip = nextIp();
    for (let i = 0; i < WRONG_PASSWORDS_ALLOWED; i++) await gate.admit(drop, { password: `guess ${i}`, ip }).catch(() => undefined);
    await expect(gate.admit(drop, { password: 'open sesame', ip: nextIp() })).resolves.toBeUndefined();
    await expect(gate.admit(protectedDrop(), { password: 'open sesame', ip })).resolves.toBeUndefined();
  });
});
