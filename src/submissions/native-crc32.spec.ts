import { randomBytes } from 'node:crypto';
import { useNativeCrc32ForArchives } from './native-crc32';

// The module archiver's ZIP writer checksums with (the same instance: one copy in node_modules).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const crcModule = require('crc-32') as { buf: (data: Uint8Array, seed?: unknown) => number; native?: boolean };

describe('useNativeCrc32ForArchives', () => {
  it("gives crc-32's own results, seeded as crc32-stream seeds it, through zlib.crc32", () => {
    const javascript = crcModule.buf;
    const data = randomBytes(200_000);
    const parts = [data.subarray(0, 1), data.subarray(1, 70_000), data.subarray(70_000)];
    // crc32-stream starts from a zero Buffer as the seed, then passes the unsigned running value.
    const chained = (buf: typeof javascript) => parts.reduce<unknown>((seed, part) => buf(part, seed) >>> 0, Buffer.alloc(4));
    const expected = { whole: javascript(data), chained: chained(javascript), empty: javascript(Buffer.alloc(0)) };

    useNativeCrc32ForArchives();

    expect(crcModule.native).toBe(true);
    expect(crcModule.buf).not.toBe(javascript);
    expect({ whole: crcModule.buf(data), chained: chained(crcModule.buf), empty: crcModule.buf(Buffer.alloc(0)) }).toEqual(expected);
  });
});
