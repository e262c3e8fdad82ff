import { preferredWait } from './prefer';

describe('preferredWait (Prefer: wait=N, RFC 7240)', () => {
  it.each([
    ['wait=10', 10],
    ['wait=1', 1],
    ['wait=60', 60],
    ['respond-async, wait=5', 5],
    ['WAIT=7', 7],
    ['wait="12"', 12],
    ['wait=3, wait=30', 3], // the first one counts (RFC 7240 §2)
    [['handling=lenient', 'wait=4'], 4],
  ])('%j → %s', (header, seconds) => {
    expect(preferredWait(header)).toBe(seconds);
  });

  it.each([undefined, '', 'wait', 'wait=', 'wait=0', 'wait=61', 'wait=600', 'wait=-1', 'wait=1.5', 'wait=soon', 'wait=0x10', 'respond-async', 'return=minimal'])(
    '%j is ignored',
    (header) => {
      expect(preferredWait(header)).toBeUndefined();
    },
  );
});
