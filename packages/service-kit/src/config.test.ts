import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, port } from './config.js';

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
