import { SendShares, WEBHOOK_SEND_SLOTS } from './send-shares';

/** Takes slots for the account until it may take no more (its sends never end); returns how many it got. */
function fill(shares: SendShares, accountId: string, cap = Infinity): number {
  let n = 0;
  while (n < cap && shares.take(accountId)) n++;
  return n;
}

describe('SendShares', () => {
  it('leaves a share free for a newcomer when accounts fill theirs one after another', () => {
    const shares = new SendShares();
    // Alone, an account may hold half the slots; the next ones less, and the last share stays free.
    expect(['a', 'b', 'c', 'd'].map((a) => fill(shares, a))).toEqual([10, 4, 1, 1]);
    expect(fill(shares, 'e')).toBe(1);
  });

  it('with the cross-process cap of 5, four accounts hold 16 of the 20 slots, whatever the order', () => {
    const oneByOne = new SendShares();
    expect(['a', 'b', 'c', 'd'].map((a) => fill(oneByOne, a, 5))).toEqual([5, 5, 5, 1]);

    const inTurns = new SendShares();
    const got: Record<string, number> = { a: 0, b: 0, c: 0, d: 0 };
    for (let round = 0; round < 5; round++) for (const a of Object.keys(got)) if (got[a] < 5 && inTurns.take(a)) got[a]++;
    expect(Object.values(got)).toEqual([4, 4, 4, 4]);

    for (const shares of [oneByOne, inTurns]) expect(shares.take('e')).toBeDefined();
  });

  it('never gives out more than the slots, however many accounts send', () => {
    const shares = new SendShares();
    let held = 0;
    for (let a = 0; a < 2 * WEBHOOK_SEND_SLOTS; a++) held += fill(shares, `acc_${a}`);
    expect(held).toBe(WEBHOOK_SEND_SLOTS);
  });

  it('gives a slot back once, and forgets an account that holds none', () => {
    const shares = new SendShares();
    const first = shares.take('a')!;
    first();
    first();
    expect(fill(shares, 'a')).toBe(WEBHOOK_SEND_SLOTS / 2);
  });
});
