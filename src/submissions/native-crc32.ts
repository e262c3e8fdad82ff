import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';

/**
 * archiver's ZIP writer (compress-commons, crc32-stream) checksums every stored byte with the
 * `crc-32` package, plain JavaScript: ~1.7 CPU-s per GiB here, two fifths of a download-all's CPU.
 * Node's native `zlib.crc32` (Node ≥ 22) gives the same checksum for a fraction of it. There is no
 * option to hand archiver a checksum, so its `crc-32` module's `buf` — the only function those two
 * packages call — is pointed at `zlib.crc32`, keeping `crc-32`'s signature: a signed 32-bit result,
 * and a seed that crc32-stream starts as a zero Buffer (read as 0). The ZIP tests check every
 * entry's CRC against `zlib.crc32` and `unzip -t`.
 */
export function useNativeCrc32ForArchives(): void {
  // archiver → zip-stream → compress-commons → crc-32, and compress-commons → crc32-stream → crc-32.
  const zipStream = packageDir('zip-stream', packageDir('archiver'));
  const compressCommons = packageDir('compress-commons', zipStream);
  for (const from of [compressCommons, packageDir('crc32-stream', compressCommons)]) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const crcModule = require(require.resolve('crc-32', { paths: [from] })) as { buf: (data: Uint8Array, seed?: unknown) => number; native?: boolean };
    if (crcModule.native) continue;
    crcModule.buf = (data, seed) => crc32(data, typeof seed === 'number' ? seed >>> 0 : 0) | 0;
    crcModule.native = true;
  }
}

/** The folder of package `name`'s entry, as `from` (a folder) resolves it; the caller's own when `from` is undefined. */
function packageDir(name: string, from?: string): string {
  return dirname(require.resolve(name, from ? { paths: [from] } : undefined));
}
