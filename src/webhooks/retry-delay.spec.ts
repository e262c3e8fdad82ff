import { retryDelayMs } from './retry-delay';

describe('retryDelayMs', () => {
  const schedule = [5, 300, 1800];
  const now = new Date('2026-01-01T00:00:00Z');

  it('follows the schedule, or a longer Retry-After', () => {
    expect(retryDelayMs(schedule, 0, undefined, now)).toBe(5_000);
    expect(retryDelayMs(schedule, 0, '60', now)).toBe(60_000);
    expect(retryDelayMs(schedule, 1, '60', now)).toBe(300_000);
    expect(retryDelayMs(schedule, 0, 'Thu, 01 Jan 2026 00:02:00 GMT', now)).toBe(120_000);
  });

  it.each(['99999999999999999999', 'Fri, 31 Dec 9999 23:59:59 GMT', ' 86400000 '])('clamps a huge Retry-After (%s) to the longest delay of the schedule', (value) => {
    const delay = retryDelayMs(schedule, 0, value, now);
    expect(delay).toBe(1_800_000);
    expect(Number.isNaN(new Date(now.getTime() + delay).getTime())).toBe(false);
  });

  it.each(['soon', '-5', '12abc', '', '1e400'])('ignores a malformed Retry-After (%j)', (value) => {
    expect(retryDelayMs(schedule, 0, value, now)).toBe(5_000);
  });
});
