import { describe, expect, it } from 'vitest';
import { hostOf, locate, segments } from './address.ts';

const own = new Set(['reader.test', '127.0.0.1']);

describe('locate', () => {
  it('reads the organization and site from the path on the reader host', () => {
    expect(locate('reader.test:8090', '/org1/site1/a/b', own)).toEqual({ address: { kind: 'path', organization: 'org1', site: 'site1' }, base: '/org1/site1', rest: ['a', 'b'] });
    expect(locate('127.0.0.1', '/org1/site1/', own)?.rest).toEqual([]);
    expect(locate('reader.test', '/org1', own)).toBeNull();
  });

  it("reads sites below the mount path when the reader shares the gateway's origin, and nothing outside it", () => {
    expect(locate('127.0.0.1:8080', '/read/org1/site1/a', own, '/read')).toEqual({
      address: { kind: 'path', organization: 'org1', site: 'site1' },
      base: '/read/org1/site1',
      rest: ['a'],
    });
    expect(locate('127.0.0.1:8080', '/v1/org1/site1', own, '/read')).toBeNull();
    expect(locate('127.0.0.1:8080', '/read/org1', own, '/read')).toBeNull();
  });

  it('takes any other host as a custom hostname', () => {
    expect(locate('Docs.Acme.com', '/guide', own)).toEqual({ address: { kind: 'hostname', hostname: 'docs.acme.com' }, base: '', rest: ['guide'] });
  });

  it('refuses dot segments, encoded slashes, bad escapes and overlong paths (attacker input)', () => {
    for (const p of ['/o/s/../x', '/o/s/%2e%2e/x', '/o/s/a%2fb', '/o/s/a%5cb', '/o/s/%zz', '/o/s//x', `/o/s/${'a/'.repeat(40)}`, `/${'a'.repeat(2000)}`, 'o/s'])
      expect(segments(p), p).toBeNull();
  });

  it('strips the port of a Host header, IPv6 included', () => {
    expect(hostOf('[::1]:8090')).toBe('[::1]');
    expect(hostOf(undefined)).toBe('');
  });
});
