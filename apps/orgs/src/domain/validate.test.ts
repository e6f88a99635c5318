import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@quire/service-kit';
import { checkHostname, normalizeEmailDomains } from './validate.ts';

describe('validation', () => {
  it('takes hostnames of the subdomain pattern only', () => {
    expect(checkHostname('acme-docs')).toBe('acme-docs');
    for (const bad of ['ab', 'a'.repeat(33), '-acme', 'acme-', 'Acme', 'ac_me']) expect(() => checkHostname(bad)).toThrow(InvalidArgumentError);
  });

  it('normalizes email domains and names the bad one', () => {
    expect(normalizeEmailDomains([' Acme.Example ', 'acme.example', 'b.io'])).toEqual(['acme.example', 'b.io']);
    expect(() => normalizeEmailDomains(['ok.io', 'not a domain'])).toThrow(/emailDomains\[1\]/);
  });

});
