// Pure functions only: nothing in this file opens a socket or resolves a name.
import { classifyAddress, isAllowedPrivate, isForbiddenAddress, parseHostAddress } from './address-policy';
import { BlockedAddressError, checkAddress, createGuardedLookup } from './guarded-dispatcher';
import type { LookupAddress, LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';

describe('isForbiddenAddress / classifyAddress', () => {
  it.each([
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'cloudMetadata'],
    ['169.254.1.1', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.100.100.200', 'cloudMetadata'],
    ['127.0.0.1', 'loopback'],
    ['127.0.0.2', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'cloudMetadata'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:10.0.0.1', 'ipv4Mapped'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:7f00:1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'], // every mapped form is refused, whatever it embeds
    ['::ffff:0:a00:1', 'rfc6145'],
    ['64:ff9b::a00:1', 'rfc6052'],
    ['64:ff9b::808:808', 'rfc6052'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    ['2002:a00:1::', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['::a00:1', 'ipv4Compatible'],
    ['::127.0.0.1', 'ipv4Compatible'],
    ['2001:db8::1', 'reserved'],
    ['100::1', 'discard'],
    ['4000::1', 'reserved'], // outside 2000::/3, unassigned
    ['[::1]', 'loopback'],
  ])('refuses %s (%s)', (ip, range) => {
    expect(isForbiddenAddress(ip)).toBe(true);
    expect(classifyAddress(ip)).toBe(range);
  });

  it.each(['2130706433', '0x7f000001', '017700000001', '127.1', '0x7f.1', '0177.0.0.1', '127.0.1', '127.0.0.1.'])('refuses the loopback spelled %s', (spelling) => {
    expect(isForbiddenAddress(spelling)).toBe(true);
    expect(classifyAddress(spelling)).toBe('loopback');
  });

  it.each([
    ['167772161', 'private'], // 10.0.0.1
    ['0xa9fea9fe', 'cloudMetadata'], // 169.254.169.254
    ['0', 'unspecified'],
    ['0xffffffff', 'broadcast'],
  ])('refuses other odd spellings: %s (%s)', (spelling, range) => {
    expect(classifyAddress(spelling)).toBe(range);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '[2606:4700:4700::1111]'])('allows the public address %s', (ip) => {
    expect(classifyAddress(ip)).toBe('public');
    expect(isForbiddenAddress(ip)).toBe(false);
  });

  it.each(['', 'example.com', 'localhost', 'not an ip', '1.2.3.256', '4294967296', '08.0.0.1'])('refuses what is not an address: %j', (input) => {
    expect(classifyAddress(input)).toBe('invalid');
    expect(isForbiddenAddress(input)).toBe(true);
  });
});

describe('parseHostAddress', () => {
  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0X7F000001', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.0.0.1.', '127.0.0.1'],
    ['2130706434', '127.0.0.2'],
    ['8.8.8.8', '8.8.8.8'],
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['::ffff:127.0.0.1', '::ffff:7f00:1'],
    ['FD12::1', 'fd12::1'],
  ])('reads %s as %s', (host, ip) => {
    expect(parseHostAddress(host)).toBe(ip);
  });

  it.each(['example.com', 'face.cafe', 'localhost', '', '1.2.3.4.5', '4294967296', '127.0.0.1/x', 'a@127.0.0.1'])('answers null for the name or non-address %j', (host) => {
    expect(parseHostAddress(host)).toBeNull();
  });

  it.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['2130706434', '127.0.0.2'],
  ])('agrees with the WHATWG URL parser on http://%s/', (spelling, ip) => {
    const { hostname } = new URL(`http://${spelling}/`);
    expect(hostname).toBe(ip);
    expect(parseHostAddress(hostname)).toBe(ip);
    expect(parseHostAddress(spelling)).toBe(ip);
    expect(isForbiddenAddress(hostname)).toBe(true);
  });
});

describe('isAllowedPrivate', () => {
  it('allows nothing with an empty list', () => {
    expect(isAllowedPrivate('127.0.0.1', '127.0.0.1', [])).toBe(false);
  });

  it.each([
    ['minio', '172.18.0.5', ['minio'], true], // by hostname, whatever it resolves to
    ['MinIO.', '172.18.0.5', ['minio'], true],
    ['files.internal', '10.0.0.7', ['10.0.0.7'], true], // by resolved IP
    ['files.internal', '10.0.0.8', ['10.0.0.7'], false],
    ['files.internal', '10.0.0.8', ['10.0.0.0/24'], true], // CIDR
    ['127.0.0.1', '127.0.0.1', ['127.0.0.1'], true],
    ['127.0.0.2', '127.0.0.2', ['127.0.0.1'], false],
    ['::1', '::1', ['[::1]'], true],
    ['::1', '::1', ['127.0.0.1'], false],
    ['::ffff:7f00:1', '::ffff:7f00:1', ['127.0.0.1'], false], // mapped form is not the IPv4 entry
    ['evil.test', '127.0.0.1', ['localhost'], false],
    ['localhost', '127.0.0.1', [' localhost ', ''], true],
    ['a.minio', '172.18.0.5', ['minio'], false], // no suffix matching
  ])('%s → %s with %j: %s', (host, ip, list, expected) => {
    expect(isAllowedPrivate(host, ip, list)).toBe(expected);
  });
});

describe('the connect-time check (no sockets)', () => {
  const fakeLookup = (answers: LookupAddress[]): LookupFunction =>
    ((_host: string, options: LookupOptions, cb: (...args: unknown[]) => void) => {
      if (options.all) cb(null, answers);
      else cb(null, answers[0].address, answers[0].family);
    }) as unknown as LookupFunction;

  const run = (lookup: LookupFunction, all: boolean) =>
    new Promise<{ err: Error | null; address: unknown }>((resolve) => lookup('some.host', { all }, (err, address) => resolve({ err, address })));

  it.each([true, false])('refuses a name resolving to a private address (all=%s)', async (all) => {
    const guarded = createGuardedLookup([], fakeLookup([{ address: '10.0.0.1', family: 4 }]));
    const { err } = await run(guarded, all);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as BlockedAddressError).range).toBe('private');
  });

  it('refuses the whole answer when any address in it is forbidden', async () => {
    const guarded = createGuardedLookup(
      [],
      fakeLookup([
        { address: '8.8.8.8', family: 4 },
        { address: '169.254.169.254', family: 4 },
      ]),
    );
    expect((await run(guarded, true)).err).toBeInstanceOf(BlockedAddressError);
  });

  it('passes public answers through unchanged', async () => {
    const answers = [
      { address: '8.8.8.8', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ];
    const { err, address } = await run(createGuardedLookup([], fakeLookup(answers)), true);
    expect(err).toBeNull();
    expect(address).toEqual(answers);
  });

  it('lets allow-listed private addresses through', async () => {
    const guarded = createGuardedLookup(['10.0.0.1'], fakeLookup([{ address: '10.0.0.1', family: 4 }]));
    expect((await run(guarded, true)).err).toBeNull();
  });

  it('passes lookup failures through', async () => {
    const failing = ((_h: string, _o: LookupOptions, cb: (err: Error) => void) => cb(Object.assign(new Error('nx'), { code: 'ENOTFOUND' }))) as unknown as LookupFunction;
    const { err } = await run(createGuardedLookup([], failing), true);
    expect((err as NodeJS.ErrnoException).code).toBe('ENOTFOUND');
  });

  it('checkAddress names host, address and range', () => {
    const blocked = checkAddress('meta.test', '169.254.169.254', []);
    expect(blocked).toMatchObject({ host: 'meta.test', address: '169.254.169.254', range: 'cloudMetadata' });
    expect(checkAddress('dns.google', '8.8.8.8', [])).toBeUndefined();
  });
});
