import { InvalidArgumentError } from '@quire/service-kit';

/** Bounds of the API reference, checked by the service too: the gateway is not its only caller. */
export function checkLength(field: string, value: string, min: number, max: number): string {
  const length = [...value].length;
  if (length < min || length > max) {
    throw new InvalidArgumentError(
      min === max ? `${field}: must be ${min} characters` : `${field}: must be between ${min} and ${max} characters (got ${length})`,
    );
  }
  return value;
}

// The organization hostname is its subdomain: the reference's Subdomain pattern.
const HOSTNAME = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;
const EMAIL_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function checkHostname(hostname: string): string {
  checkLength('hostname', hostname, 3, 32);
  if (!HOSTNAME.test(hostname)) throw new InvalidArgumentError('hostname: lowercase letters, digits and inner hyphens only');
  return hostname;
}

export function normalizeEmailDomains(domains: string[]): string[] {
  const out = domains.map((d) => d.trim().toLowerCase());
  out.forEach((d, i) => {
    if (!EMAIL_DOMAIN.test(d)) throw new InvalidArgumentError(`emailDomains[${i}]: "${domains[i]}" is not a domain name`);
  });
  return [...new Set(out)];
}

export function checkUri(field: string, value: string, max: number): string {
  checkLength(field, value, 1, max);
  let ok = false;
  try {
    const u = new URL(value);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    ok = false;
  }
  if (!ok) throw new InvalidArgumentError(`${field}: must be an http(s) URL`);
  return value;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(email: string): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > 320) throw new InvalidArgumentError(`email: "${email}" is not an email address`);
  return e;
}

export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
