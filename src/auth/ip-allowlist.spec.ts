import { ipAllowed, isValidCidr } from './ip-allowlist';

describe('ipAllowed', () => {
  it('lets every address through an empty allowlist', () => {
    expect(ipAllowed('203.0.113.9', [])).toBe(true);
  });

  it.each([
    ['127.0.0.1', ['127.0.0.0/8'], true],
    ['127.0.0.1', ['10.0.0.0/8'], false],
    ['192.0.2.7', ['192.0.2.7'], true],
    ['192.0.2.8', ['192.0.2.7'], false],
    ['::ffff:127.0.0.1', ['127.0.0.1/32'], true], // dual-stack socket reporting IPv4
    ['::1', ['::1/128'], true],
    ['::1', ['127.0.0.1/32'], false],
    ['2001:db8::5', ['2001:db8::/32'], true],
    ['2001:db9::5', ['2001:db8::/32'], false],
    ['127.0.0.1', ['::ffff:127.0.0.0/104'], true],
    ['not-an-ip', ['0.0.0.0/0'], false],
  ])('%s in %j → %s', (ip, list, expected) => {
    expect(ipAllowed(ip, list)).toBe(expected);
  });
});

describe('isValidCidr', () => {
  it.each(['10.0.0.0/8', '::1', '2001:db8::/32', '192.0.2.1'])('accepts %s', (c) => expect(isValidCidr(c)).toBe(true));
  it.each(['10.0.0.0/33', 'example.com', '', '1.2.3'])('refuses %s', (c) => expect(isValidCidr(c)).toBe(false));
});
