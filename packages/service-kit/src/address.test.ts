import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, grpcAddress, loadConfig } from './config.js';
import { grpcTarget } from './client.js';

const schema = Type.Object({ ORGS_URL: grpcAddress(50051) });

describe('service addresses', () => {
  it('take a host:port, a dns: target or a list of replicas', () => {
    for (const v of ['orgs:50051', '10.0.0.5:50051', '[::1]:50051', 'dns:///orgs.quire.svc:50051', '127.0.0.1:1,127.0.0.1:2']) {
      expect(loadConfig(schema, { ORGS_URL: v }).ORGS_URL).toBe(v);
    }
  });

  it('refuse anything else, in linear time', () => {
    for (const v of ['orgs', 'orgs:', 'http://orgs:50051', 'a:1,', 'a:1;b:2', 'a b:1']) {
      expect(() => loadConfig(schema, { ORGS_URL: v }), v).toThrow(ConfigError);
    }
    const started = performance.now();
    expect(() => loadConfig(schema, { ORGS_URL: `${'1:'.repeat(900)}x` })).toThrow(ConfigError);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('become grpc-js targets: a list of IPs is a static list, a name resolves by DNS', () => {
    expect(grpcTarget('orgs:50051')).toBe('orgs:50051');
    expect(grpcTarget('127.0.0.1:1,127.0.0.1:2')).toBe('ipv4:127.0.0.1:1,127.0.0.1:2');
    expect(grpcTarget('[::1]:1,[::1]:2')).toBe('ipv6:[::1]:1,[::1]:2');
    expect(() => grpcTarget('a:1,b:2')).toThrow(/IP addresses only/);
  });
});
