import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { toErrorResponse } from '../common/error-response';
import { newId } from '../common/ids';
import { loadConfig } from '../config/config';
import { contentDisposition, safeFileName } from './content-disposition';
import { DownloadUrlSigner } from './download-url-signer';
import { LocalStorageDriver } from './local-storage.driver';
import { FileTooLargeError, InvalidStorageKeyError, ObjectNotFoundError } from './storage.driver';

const SECRET = 'unit-test-signing-secret-0123456789';

/** Every regular file under `dir`, recursively (directories alone are not leftovers). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath ?? (e as any).path, e.name));
}

/** A stream of `total` bytes in chunks of `chunk`, counting what was actually read from it. */
function source(total: number, chunk = 64 * 1024): Readable & { served: number } {
  let served = 0;
  const stream = new Readable({
    read() {
      if (served >= total) return this.push(null);
      const n = Math.min(chunk, total - served);
      served += n;
      (stream as any).served = served;
      this.push(Buffer.alloc(n, served % 251));
    },
  }) as Readable & { served: number };
  stream.served = 0;
  return stream;
}

describe('LocalStorageDriver', () => {
  let dir: string;
  let signer: DownloadUrlSigner;
  let driver: LocalStorageDriver;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dropline-local-'));
    signer = new DownloadUrlSigner(loadConfig({ SIGNING_SECRET: SECRET, PUBLIC_BASE_URL: 'https://files.example.com/' }));
    driver = new LocalStorageDriver(dir, signer);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores, reads back, copies out and deletes a streamed file, sharded under the dir', async () => {
    const key = newId('obj');
    const data = Buffer.from('hello, dropline — ünïcödé bytes\n'.repeat(1000));
    expect(await driver.exists(key)).toBe(false);
    expect(await driver.put(key, Readable.from([data.subarray(0, 100), data.subarray(100)]))).toEqual({ size: data.length });
    expect(await driver.exists(key)).toBe(true);

    const path = driver.pathOf(key);
    expect(path.startsWith(dir)).toBe(true);
    expect(path.slice(dir.length)).toMatch(new RegExp(`^/[0-9a-f]{2}/[0-9a-f]{2}/${key}$`));
    expect(await readFile(path)).toEqual(data);

    const out = join(dir, 'copy.bin');
    await driver.downloadToFile(key, out);
    expect(await readFile(out)).toEqual(data);

    const served = await driver.servedFile(key);
    expect(served).toEqual({ root: dir, path: path.slice(dir.length + 1) });
    expect(await readFile(join(served!.root, served!.path))).toEqual(data);

    await driver.delete(key);
    expect(await driver.exists(key)).toBe(false);
    expect(await driver.servedFile(key)).toBeNull();
    await expect(driver.delete(key)).resolves.toBeUndefined(); // idempotent
    await expect(driver.downloadToFile(key, out)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('move renames within the store: the old key serves nothing; moving again is a no-op; neither key is ObjectNotFoundError', async () => {
    const [from, to] = [newId('obj'), newId('obj')];
    await driver.put(from, Readable.from([Buffer.from('moved bytes')]));
    await driver.move(from, to);
    expect(await driver.servedFile(from)).toBeNull();
    expect(await readFile(driver.pathOf(to), 'utf8')).toBe('moved bytes');
    await expect(driver.move(from, to)).resolves.toBeUndefined();
    await expect(driver.move(newId('obj'), newId('obj'))).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('putFile copies a local file; deleteMany removes several keys, missing ones included', async () => {
    const src = join(dir, 'src.bin');
    await writeFile(src, 'abc');
    const [a, b] = [newId('obj'), newId('obj')];
    expect(await driver.putFile(a, src)).toEqual({ size: 3 });
    await driver.put(b, Readable.from([Buffer.from('xyz')]));
    await driver.deleteMany([a, b, newId('obj')]);
    expect(await driver.exists(a)).toBe(false);
    expect(await driver.exists(b)).toBe(false);
    expect(await readFile(src, 'utf8')).toBe('abc'); // the source is left alone
  });

  it('putFile stores without copying on the same file system: the stored file outlives the source, nothing left in .tmp', async () => {
    const src = join(dir, 'linked.bin');
    await writeFile(src, 'linked bytes');
    const key = newId('obj');
    expect(await driver.putFile(key, src)).toEqual({ size: 12 });
    expect((await stat(driver.pathOf(key))).ino).toBe((await stat(src)).ino); // a hard link, not a copy
    await rm(src);
    expect(await readFile(driver.pathOf(key), 'utf8')).toBe('linked bytes');
    const leftInTmp = () => readdir(join(dir, '.tmp')).catch(() => []); // a link straight into its shard needs no temp dir
    expect(await leftInTmp()).toEqual([]);
    await expect(driver.putFile(newId('obj'), join(dir, 'missing.bin'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await leftInTmp()).toEqual([]);
    expect((await readdir(dir)).filter((n) => /^[0-9a-f]{2}$/.test(n))).toHaveLength(1); // the failed put made no shard dir
  });

  it('accepts exactly maxBytes', async () => {
    const key = newId('obj');
    expect(await driver.put(key, source(1000, 100), { maxBytes: 1000 })).toEqual({ size: 1000 });
  });

  it('cuts off past maxBytes: stops reading, throws FileTooLargeError and leaves no file behind', async () => {
    const key = newId('obj');
    const body = source(50 * 1024 * 1024);
    const err = await driver.put(key, body, { maxBytes: 1024 * 1024 }).catch((e) => e);
    expect(err).toBeInstanceOf(FileTooLargeError);
    expect(err.limit).toBe(1024 * 1024);
    expect(toErrorResponse(err).status).toBe(413);
    expect(err.code).toBe('file_too_large');
    expect(body.served).toBeLessThan(4 * 1024 * 1024); // did not read the whole 50 MB
    expect(body.destroyed).toBe(true);
    expect(await driver.exists(key)).toBe(false);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('leaves nothing when the source stream fails midway', async () => {
    const key = newId('obj');
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(1000));
    setImmediate(() => failing.destroy(new Error('client went away')));
    await expect(driver.put(key, failing)).rejects.toThrow('client went away');
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('refuses keys that are not plain ids, before touching the disk', async () => {
    for (const bad of ['', '../etc/passwd', 'a/b', 'a\\b', '..', 'obj.bin', 'x'.repeat(201), 'obj\n1', 'ключ']) {
      await expect(driver.put(bad, Readable.from([Buffer.from('x')]))).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(driver.exists(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(driver.delete(bad)).rejects.toBeInstanceOf(InvalidStorageKeyError);
      await expect(driver.signedUrl(bad, { fileName: 'a', expiresIn: 60 })).rejects.toBeInstanceOf(InvalidStorageKeyError);
    }
    await expect(driver.deleteMany([newId('obj'), '../x'])).rejects.toBeInstanceOf(InvalidStorageKeyError);
    expect(await filesUnder(dir)).toEqual([]);
  });

  it('removes stale temp files at boot', async () => {
    await driver.put(newId('obj'), Readable.from([Buffer.from('kept')]));
    await writeFile(join(dir, '.tmp', 'obj_x.dead.part'), 'partial'); // a crashed writer's leftover
    await driver.sweepTemp(0);
    expect((await filesUnder(dir)).map((p) => p.includes('.tmp'))).toEqual([false]);
  });
});

describe('DownloadUrlSigner', () => {
  const config = loadConfig({ SIGNING_SECRET: SECRET, PUBLIC_BASE_URL: 'https://files.example.com/' });
  const signer = new DownloadUrlSigner(config);
  const now = Date.UTC(2030, 0, 1);
  const key = 'obj_AbCdEfGhIjKlMnOp';

  function parse(url: string) {
    const u = new URL(url);
    return {
      url: u,
      key: u.pathname.split('/').pop()!,
      name: u.searchParams.get('name')!,
      expires: Number(u.searchParams.get('expires')),
      sig: u.searchParams.get('sig')!,
    };
  }

  it('builds {base}/v1/files/{key}?expires&name&sig and accepts it until it expires', () => {
    const url = signer.url(key, 'Résumé (final) #2.pdf', 3600, now);
    const p = parse(url);
    expect(url.startsWith(`https://files.example.com/v1/files/${key}?expires=${now / 1000 + 3600}&name=R%C3%A9sum%C3%A9%20(final)%20%232.pdf&sig=`)).toBe(true);
    expect(p.sig).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(p.name).toBe('Résumé (final) #2.pdf');
    expect(signer.verify(p, now)).toBe('ok');
    expect(signer.verify(p, now + 3600 * 1000)).toBe('ok'); // the last second still works
    expect(signer.verify(p, now + 3601 * 1000)).toBe('url_expired');
  });

  it('rejects a tampered key, name, expiry or signature', () => {
    const p = parse(signer.url(key, 'photo.jpg', 3600, now));
    expect(signer.verify({ ...p, key: 'obj_AbCdEfGhIjKlMnOq' }, now)).toBe('invalid_signature');
    expect(signer.verify({ ...p, name: 'photo.jpeg' }, now)).toBe('invalid_signature');
    expect(signer.verify({ ...p, expires: p.expires + 1 }, now)).toBe('invalid_signature');
    expect(signer.verify({ ...p, expires: p.expires + 1 }, now + 10_000 * 1000)).toBe('invalid_signature'); // not "expired"
    expect(signer.verify({ ...p, sig: p.sig.slice(0, -1) + (p.sig.endsWith('A') ? 'B' : 'A') }, now)).toBe('invalid_signature');
    expect(signer.verify({ ...p, sig: '' }, now)).toBe('invalid_signature');
    expect(signer.verify({ ...p, sig: p.sig + '=' }, now)).toBe('invalid_signature');
    expect(signer.verify({ ...p, expires: NaN }, now)).toBe('invalid_signature');
  });

  it('rejects URLs signed with another secret, or by a process with a random secret', () => {
    const other = new DownloadUrlSigner(loadConfig({ SIGNING_SECRET: 'another-secret-0123456789abcdef-0123', PUBLIC_BASE_URL: 'https://x' }));
    const p = parse(other.url(key, 'a.txt', 60, now));
    expect(signer.verify(p, now)).toBe('invalid_signature');
    expect(other.verify(p, now)).toBe('ok');
  });

  it('refuses lifetimes outside 1 s … 7 days', () => {
    expect(() => signer.url(key, 'a', 0)).toThrow(RangeError);
    expect(() => signer.url(key, 'a', 7 * 24 * 3600 + 1)).toThrow(RangeError);
    expect(() => signer.url(key, 'a', 1.5)).toThrow(RangeError);
  });
});

describe('file names and ranges', () => {
  it('sanitizes names for signing and headers', () => {
    expect(safeFileName('  ')).toBe('download');
    expect(safeFileName('a/b\\c\r\n.txt')).toBe('a_b_c__.txt');
    expect(safeFileName('\uD800x.txt')).toBe('\uFFFDx.txt');
    const long = safeFileName(`${'é'.repeat(300)}.jpeg`);
    expect(Array.from(long)).toHaveLength(255);
    expect(long.endsWith('é.jpeg')).toBe(true);
  });

  it('writes an ASCII fallback and an RFC 8187 filename*', () => {
    expect(contentDisposition('photo.jpg')).toBe(`attachment; filename="photo.jpg"; filename*=UTF-8''photo.jpg`);
    expect(contentDisposition(`Ré "q" 50%'(x)*.pdf`)).toBe(`attachment; filename="R_ _q_ 50_'(x)*.pdf"; filename*=UTF-8''R%C3%A9%20%22q%22%2050%25%27%28x%29%2A.pdf`);
    expect(contentDisposition('日本.txt')).toBe(`attachment; filename="__.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`);
  });
});
