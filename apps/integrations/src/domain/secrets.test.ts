import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openSecrets, sealSecrets } from './secrets.ts';

describe('secrets', () => {
  const key = randomBytes(32);

  it('seals with a fresh nonce each time and opens with the same key and name', () => {
    const a = sealSecrets({ API_KEY: 'hunter2' }, 'slack', key);
    const b = sealSecrets({ API_KEY: 'hunter2' }, 'slack', key);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(Buffer.from(a).includes('hunter2')).toBe(false);
    expect(openSecrets(a, 'slack', key)).toEqual({ API_KEY: 'hunter2' });
  });

  it('refuses another key, another name or altered bytes', () => {
    const sealed = sealSecrets({ API_KEY: 'hunter2' }, 'slack', key);
    expect(() => openSecrets(sealed, 'slack', randomBytes(32))).toThrow();
    expect(() => openSecrets(sealed, 'github', key)).toThrow();
    const altered = Buffer.from(sealed);
    altered[altered.length - 1]! ^= 1;
    expect(() => openSecrets(altered, 'slack', key)).toThrow();
  });
});
