import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, port, secret } from './config.js';

describe('loadConfig', () => {
  const schema = Type.Object({ PORT: port(8080), NAME: Type.String({ minLength: 1 }) });

  it('applies defaults and converts numbers', () => {
    expect(loadConfig(schema, { NAME: 'x' })).toEqual({ PORT: 8080, NAME: 'x' });
    expect(loadConfig(schema, { NAME: 'x', PORT: '9000' }).PORT).toBe(9000);
  });

  it('names every bad variable', () => {
    try {
      loadConfig(schema, { PORT: 'eighty' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/PORT: .*\(got "eighty"\)/);
      expect((err as Error).message).toMatch(/NAME: .*\(not set\)/);
    }
  });
});

describe('secrets', () => {
  const schema = Type.Object({ KEY: secret(Type.String({ minLength: 16 })), NAME: Type.String({ default: 'n' }) });

  it('refuses to start in production when a key would be drawn per process', () => {
    expect(loadConfig(schema, {})).toEqual({ NAME: 'n' });
    expect(() => loadConfig(schema, { NODE_ENV: 'production' })).toThrow(/KEY: must be set in production.*quire init/);
    expect(loadConfig(schema, { NODE_ENV: 'production', KEY: 'k'.repeat(16) }).KEY).toBe('k'.repeat(16));
  });

  it('leaves <NAME>_FILE to a setting that declares it as a field of its own', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-config-'));
    try {
      writeFileSync(join(dir, 'key'), 'pem\n');
      const own = Type.Object({ KEY: Type.Optional(Type.String()), KEY_FILE: Type.Optional(Type.String()) });
      expect(loadConfig(own, { KEY_FILE: join(dir, 'key') })).toEqual({ KEY_FILE: join(dir, 'key') });
    } finally {
      rmSync(dir, { recursive: true });
    }
  });

  it('reads any setting from <NAME>_FILE, and says when the file cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-config-'));
    try {
      writeFileSync(join(dir, 'key'), `${'s'.repeat(20)}\n`);
      writeFileSync(join(dir, 'name'), 'from-file');
      expect(loadConfig(schema, { NODE_ENV: 'production', KEY_FILE: join(dir, 'key'), NAME_FILE: join(dir, 'name') })).toEqual({ KEY: 's'.repeat(20), NAME: 'from-file' });
      expect(loadConfig(schema, { KEY: 'v'.repeat(16), KEY_FILE: join(dir, 'key') }).KEY).toBe('v'.repeat(16));
      expect(() => loadConfig(schema, { KEY_FILE: join(dir, 'absent') })).toThrow(/KEY_FILE: cannot be read \(ENOENT\)/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
