import { describe, expect, it } from 'vitest';
import { TokenScope } from '@quire/proto/orgs';
import { checkSessionMethod, checkTokenExpiry, checkTokenLabel, scopeFromDb, scopeToDb, sessionEnd } from './credentials.ts';
import { checkNewPassword, hashPassword, verifyPassword } from './passwords.ts';

describe('sessions', () => {
  it('end at the idle deadline, never past the absolute one', () => {
    const seen = new Date('2026-01-01T00:00:00Z');
    expect(sessionEnd(seen, new Date('2026-02-01T00:00:00Z'), 3_600_000)).toEqual(new Date('2026-01-01T01:00:00Z'));
    expect(sessionEnd(seen, new Date('2026-01-01T00:30:00Z'), 3_600_000)).toEqual(new Date('2026-01-01T00:30:00Z'));
  });
  it('name how the user signed in', () => {
    expect(checkSessionMethod('saml')).toBe('saml');
    expect(() => checkSessionMethod('magic')).toThrow(/method/);
  });
});

describe('tokens', () => {
  it('have a label of 1 to 100 characters', () => {
    expect(checkTokenLabel(' ci ')).toBe('ci');
    expect(() => checkTokenLabel('  ')).toThrow(/label/);
    expect(() => checkTokenLabel('x'.repeat(101))).toThrow(/label/);
  });
  it('expire in the future only', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(checkTokenExpiry(undefined, now)).toBeUndefined();
    expect(() => checkTokenExpiry(now, now)).toThrow(/expiresAt/);
    expect(checkTokenExpiry(new Date('2026-01-02T00:00:00Z'), now)).toEqual(new Date('2026-01-02T00:00:00Z'));
  });
  it('write unless read is asked for', () => {
    expect(scopeToDb(TokenScope.TOKEN_SCOPE_UNSPECIFIED)).toBe('write');
    expect(scopeToDb(TokenScope.TOKEN_SCOPE_READ)).toBe('read');
    expect(scopeFromDb('read')).toBe(TokenScope.TOKEN_SCOPE_READ);
  });
});

describe('passwords', () => {
  it('are 8 to 256 characters', () => {
    expect(() => checkNewPassword('newPassword', 'short')).toThrow(/newPassword: must have at least 8/);
    expect(() => checkNewPassword('newPassword', 'x'.repeat(257))).toThrow(/at most 256/);
  });
  it('are stored as argon2id and verified', async () => {
    const h = await hashPassword('correct horse battery');
    expect(h).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(h, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(h, 'wrong horse battery')).toBe(false);
    expect(await verifyPassword(null, 'correct horse battery')).toBe(false);
  });
});
