import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { MAX_TOKEN_LENGTH, newVisitorKey, verifyVisitorToken } from './visitor-token.ts';
import { visitorAccess } from './access.ts';

const key = newVisitorKey();
const sign = (claims: Record<string, unknown>, k = key, exp = '1h') =>
  new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(exp).sign(new TextEncoder().encode(k));

describe('verifyVisitorToken', () => {
  it('answers the claims of a current token signed with the key, without the registered ones', async () => {
    expect(await verifyVisitorToken(await sign({ beta: true, plan: 'pro' }), key)).toEqual({ beta: true, plan: 'pro' });
  });

  it('refuses forged, expired, unsigned, malformed and oversized tokens (attacker input)', async () => {
    expect(await verifyVisitorToken(await sign({ beta: true }, newVisitorKey()), key)).toBeNull();
    expect(await verifyVisitorToken(await sign({}, key, '-1m'), key)).toBeNull();
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"beta":true}').toString('base64url')}.`;
    expect(await verifyVisitorToken(none, key)).toBeNull();
    expect(await verifyVisitorToken('not.a.jwt', key)).toBeNull();
    expect(await verifyVisitorToken('a'.repeat(MAX_TOKEN_LENGTH + 1), key)).toBeNull();
  });
});

describe('visitorAccess', () => {
  it('opens public and unlisted sites, share-link ones with a key, visitor-auth ones with a token', () => {
    const none = { activeShareKey: false, validToken: false };
    expect(visitorAccess('public', none)).toBe('granted');
    expect(visitorAccess('unlisted', none)).toBe('granted');
    expect(visitorAccess('share-link', none)).toBe('share-key');
    expect(visitorAccess('share-link', { ...none, activeShareKey: true })).toBe('granted');
    expect(visitorAccess('share-link', { ...none, validToken: true })).toBe('share-key');
    expect(visitorAccess('visitor-auth', { ...none, activeShareKey: true })).toBe('visitor-token');
    expect(visitorAccess('visitor-auth', { ...none, validToken: true })).toBe('granted');
    expect(visitorAccess('private', { activeShareKey: true, validToken: true })).toBe('share-key');
  });
});
