import { COMMON, ORGANIZATION } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError } from '@quire/service-kit';

// The organization hostname is its subdomain: the reference's Subdomain pattern.
const HOSTNAME = /^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$/;
const EMAIL_DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function checkHostname(hostname: string): string {
  checkLength('hostname', hostname, ORGANIZATION.hostname);
  if (!HOSTNAME.test(hostname)) throw new InvalidArgumentError('hostname: lowercase letters, digits and inner hyphens only');
  return hostname;
}

export function normalizeEmailDomains(domains: string[]): string[] {
  if (domains.length > ORGANIZATION.emailDomains.max) throw new InvalidArgumentError(`emailDomains: at most ${ORGANIZATION.emailDomains.max}`);
  const out = domains.map((d) => d.trim().toLowerCase());
  out.forEach((d, i) => {
    if (!EMAIL_DOMAIN.test(d)) throw new InvalidArgumentError(`emailDomains[${i}]: "${domains[i]}" is not a domain name`);
  });
  return [...new Set(out)];
}

const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

export function checkEmail(email: string, field = 'email'): string {
  const e = email.trim().toLowerCase();
  if (!EMAIL.test(e) || e.length > COMMON.email.max) throw new InvalidArgumentError(`${field}: "${email}" is not an email address`);
  return e;
}

export function emailDomainOf(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}
