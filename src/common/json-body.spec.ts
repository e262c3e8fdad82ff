import { nestsDeeperThan } from './json-depth';

const deeper = (text: string, limit: number) => nestsDeeperThan(Buffer.from(text), limit);

describe('nestsDeeperThan', () => {
  it('counts objects and arrays, the body itself as level 1', () => {
    expect(deeper('{}', 1)).toBe(false);
    expect(deeper('{"a":[]}', 1)).toBe(true);
    expect(deeper('{"a":[]}', 2)).toBe(false);
    expect(deeper('[[[0]],[[0]]]', 3)).toBe(false);
    expect(deeper('[[[0]],[[[0]]]]', 3)).toBe(true);
    expect(deeper('0', 0)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(deeper('{"a":"[[[[{{{{"}', 1)).toBe(false);
    expect(deeper('{"a":"\\"[[[[", "b":"\\\\"}', 1)).toBe(false);
    expect(deeper('{"a":"\\\\", "b":[[]]}', 2)).toBe(true);
    expect(deeper('{"é[":"ü{"}', 1)).toBe(false);
  });

  it('stops at the first level past the limit', () => {
    expect(deeper('['.repeat(100_000), 64)).toBe(true);
  });
});
