import { type AdmissionFacts, decideAdmission } from './admission-rules';

const facts = (over: Partial<AdmissionFacts> = {}, counts: Partial<AdmissionFacts['counts']> = {}): AdmissionFacts => ({
  account: { balance: 10, plan: 'free' },
  key: { dailyCap: null, monthlyCap: null },
  tool: { cost: 5 },
  ...over,
  counts: { inFlight: 0, inFlightOnQueue: 0, spentToday: 0, spentThisMonth: 0, ...counts },
});

describe('decideAdmission', () => {
  it('charges the cost, ranked behind the account jobs on the queue', () => {
    expect(decideAdmission(facts({}, { inFlight: 1, inFlightOnQueue: 1 }))).toEqual({ refused: false, cost: 5, waitForSlot: false, fairShareRank: 1 });
  });

  it('refuses a balance below the cost', () => {
    expect(decideAdmission(facts({ account: { balance: 4, plan: 'free' } }))).toMatchObject({
      refused: true,
      code: 'insufficient_credits',
      message: 'This job costs 5 credits; the balance is 4.',
    });
  });

  it('refuses past a daily or monthly cap, counting this job', () => {
    expect(decideAdmission(facts({ key: { dailyCap: 9, monthlyCap: null } }, { spentToday: 5 }))).toMatchObject({ code: 'spend_cap_reached' });
    expect(decideAdmission(facts({ key: { dailyCap: 10, monthlyCap: null } }, { spentToday: 5 }))).toMatchObject({ refused: false });
    expect(decideAdmission(facts({ key: { dailyCap: null, monthlyCap: 7 } }, { spentThisMonth: 3 }))).toMatchObject({
      code: 'spend_cap_reached',
      message: expect.stringContaining('monthly'),
    });
  });

  it('refuses over the plan in-flight limit with a retry hint, unless the job may wait for a slot', () => {
    const full = { inFlight: 1_000_000 };
    expect(decideAdmission(facts({}, full))).toMatchObject({ refused: true, code: 'concurrency_exceeded', retryAfterSeconds: 1 });
    expect(decideAdmission(facts({ waitForSlot: true, key: null }, full))).toMatchObject({ refused: false, waitForSlot: true });
  });

  it('checks credits before caps, caps before the in-flight limit', () => {
    expect(decideAdmission(facts({ account: { balance: 0, plan: 'free' }, key: { dailyCap: 0, monthlyCap: 0 } }, { inFlight: 1_000_000 }))).toMatchObject({
      code: 'insufficient_credits',
    });
    expect(decideAdmission(facts({ key: { dailyCap: 0, monthlyCap: 0 } }, { inFlight: 1_000_000 }))).toMatchObject({ code: 'spend_cap_reached' });
  });
});
