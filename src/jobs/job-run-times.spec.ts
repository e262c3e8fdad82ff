import { longestChain } from './job-run-times';

describe('longestChain: a pipeline estimate from its steps’ medians', () => {
  const seconds = new Map([
    ['a', 2],
    ['b', 3],
    ['c', 4],
  ]);

  it('adds a reader to the step it reads', () => {
    expect(
      longestChain(
        [
          { name: 'a', input: null },
          { name: 'b', input: 'a' },
          { name: 'c', input: 'b' },
        ],
        seconds,
      ),
    ).toBe(9);
  });

  it('runs the steps that read the job’s input side by side: the longest branch counts', () => {
    expect(
      longestChain(
        [
          { name: 'a', input: null },
          { name: 'c', input: null },
          { name: 'b', input: 'a' },
        ],
        seconds,
      ),
    ).toBe(5);
  });
});
