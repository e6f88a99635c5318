import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkCertificate, isActive } from './saml.ts';
import { checkLanguages } from './translations.ts';
import { TEST_CERTIFICATE } from '../../test/fixtures.ts';

describe('SAML provider rules', () => {
  it('takes a PEM certificate or its bare body, and answers PEM', () => {
    const pem = checkCertificate(TEST_CERTIFICATE);
    expect(pem).toMatch(/^-----BEGIN CERTIFICATE-----\n/);
    const body = TEST_CERTIFICATE.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
    expect(checkCertificate(body)).toBe(pem);
  });

  it('refuses what is not an X.509 certificate, saying so', () => {
    const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => checkCertificate(key)).toThrow(/certificate: not an X.509 certificate/);
    expect(() => checkCertificate('hello')).toThrow(/certificate: not an X.509 certificate/);
    expect(() => checkCertificate('')).toThrow(/certificate/);
  });

  it('is active only with address, identity and certificate', () => {
    expect(isActive({ ssoUrl: 'https://idp.example/sso', entityId: 'idp', certificate: 'x' })).toBe(true);
    expect(isActive({ ssoUrl: null, entityId: 'idp', certificate: 'x' })).toBe(false);
  });
});

describe('translation languages', () => {
  it('canonicalizes tags and names the bad one', () => {
    expect(checkLanguages(['fr', 'pt-br', 'FR'])).toEqual(['fr', 'pt-BR']);
    expect(() => checkLanguages(['en', 'not a tag'])).toThrow(/languages\[1\]/);
  });
});
