import { COMMON, SSO } from '@quire/proto/limits';
import { checkLength, checkUri, PermissionDeniedError } from '@quire/service-kit';

// Rules of SSO sign-in (OIDC and SAML alike), without I/O.

export const checkOidcLabel = (label: string) => checkLength('label', label, SSO.label);
export const checkIssuer = (issuer: string) => checkUri('issuer', issuer);
export const checkClientId = (clientId: string) => checkLength('clientId', clientId, SSO.clientId);
export const checkClientSecret = (secret: string) => checkLength('clientSecret', secret, SSO.clientSecret);

/** The sealing context of a provider's client secret: a sealed value copied to another row does not open. */
export const clientSecretContext = (providerId: string) => `oidc-client-secret:${providerId}`;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

/** The lower-cased address, or null when the value is not one. */
export function normalizeEmail(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > COMMON.email.max || !EMAIL.test(value)) return null;
  return value.toLowerCase();
}

export const emailDomainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();

export interface SignInCandidate {
  email: string;
  /** The organization's email domains. */
  emailDomains: string[];
  /** The existing account's membership in the organization, if any. */
  member: { sso: boolean } | null;
}

/**
 * Whom an organization's identity provider may sign in. An organization's admins control its
 * providers, so a provider vouches only for addresses of the organization's email domains, and
 * for members an admin made SSO members (`POST .../members/{userId}/sso`). Anyone else would be
 * an account of another organization taken over by this one's provider.
 */
export function checkSignInAllowed({ email, emailDomains, member }: SignInCandidate): void {
  if (member?.sso) return;
  const domain = emailDomainOf(email);
  if (emailDomains.some((d) => d.toLowerCase() === domain)) return;
  throw new PermissionDeniedError(`email: ${domain} is not an email domain of the organization`);
}

/** The email an OIDC ID token (or userinfo) proves: present, well-formed and verified. */
export function verifiedOidcEmail(claims: Record<string, unknown>): string {
  const email = normalizeEmail(claims.email);
  if (!email) throw new PermissionDeniedError('email: the identity provider sent no email address');
  if (claims.email_verified !== true) throw new PermissionDeniedError('email: the identity provider did not verify the email address');
  return email;
}

const SAML_EMAIL_ATTRIBUTES = ['email', 'mail', 'urn:oid:0.9.2342.19200300.100.1.3', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress'];
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

/** The email of a validated SAML assertion: an email attribute, else an emailAddress NameID. */
export function samlEmail(profile: Record<string, unknown>): string {
  for (const name of SAML_EMAIL_ATTRIBUTES) {
    const value = profile[name];
    const email = normalizeEmail(Array.isArray(value) ? value[0] : value);
    if (email) return email;
  }
  const email = profile.nameIDFormat === EMAIL_NAME_ID ? normalizeEmail(profile.nameID) : null;
  if (!email) throw new PermissionDeniedError('email: the assertion carries no email attribute or emailAddress NameID');
  return email;
}

/** A display name from the claims, else the address's local part; bounded like user names. */
export function displayNameOf(email: string, name: unknown): string {
  const given = typeof name === 'string' ? name.trim() : '';
  return (given || email.slice(0, email.indexOf('@'))).slice(0, 100);
}
