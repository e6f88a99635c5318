import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';
import { parseTrustProxy, trustProxySetting } from './trust-proxy.js';

describe('TRUST_PROXY', () => {
  it('trusts nobody unless told: unset, empty and false alike', () => {
    for (const value of [undefined, '', ' ', 'false']) expect(parseTrustProxy(value)).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
  });

  it('reads addresses, CIDRs and range names, spaces and empty entries dropped', () => {
    expect(parseTrustProxy(' 10.0.0.0/8, 127.0.0.1,,::1 ,fd00::/8, loopback')).toEqual(['10.0.0.0/8', '127.0.0.1', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses what is no address, naming the setting and the entries', () => {
    expect(() => parseTrustProxy('127.0.0.1, proxy.internal, 10.0.0.0/33')).toThrow(ConfigError);
    expect(() => parseTrustProxy('127.0.0.1, proxy.internal, 10.0.0.0/33')).toThrow(/TRUST_PROXY: .*"proxy\.internal", "10\.0\.0\.0\/33"/);
    // A hop count is no proxy's address: it would let any client that sends enough hops choose its own.
    expect(() => parseTrustProxy('1')).toThrow(/TRUST_PROXY/);
  });

  it('is refused by the configuration when it holds characters no address has', () => {
    const schema = Type.Object({ TRUST_PROXY: trustProxySetting });
    expect(loadConfig(schema, {})).toEqual({});
    expect(() => loadConfig(schema, { TRUST_PROXY: '*' })).toThrow(/TRUST_PROXY: .*\(got "\*"\)/);
  });
});
