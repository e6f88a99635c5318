import { X509Certificate } from 'node:crypto';
import { SSO } from '@quire/proto/limits';
import { checkLength, checkUri, InvalidArgumentError } from '@quire/service-kit';

/**
 * A certificate as identity providers hand it out: PEM, or the bare base64 body of one. Answers
 * the PEM form, after checking that it parses as X.509.
 */
export function checkCertificate(input: string): string {
  checkLength('certificate', input, SSO.certificate);
  const body = input.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  const pem = `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END CERTIFICATE-----\n`;
  try {
    new X509Certificate(pem);
  } catch (err) {
    throw new InvalidArgumentError(`certificate: not an X.509 certificate (${(err as Error).message})`);
  }
  return pem;
}

export function checkEntityId(entityId: string): string {
  return checkLength('entityID', entityId, SSO.entityID);
}

export function checkSsoUrl(url: string): string {
  return checkUri('ssoURL', url);
}

export function checkLabel(label: string): string {
  return checkLength('label', label, SSO.label);
}

/** Sign-in works once the provider's address, identity and certificate are all known. */
export function isActive(p: { ssoUrl: string | null; entityId: string | null; certificate: string | null }): boolean {
  return !!(p.ssoUrl && p.entityId && p.certificate);
}
