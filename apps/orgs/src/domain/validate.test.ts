import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@quire/service-kit';
import { checkEmail, checkHostname, normalizeEmailDomains } from './validate.ts';

describe('validation', () => {
  it('takes hostnames of the subdomain pattern only', () => {
    expect(checkHostname('acme-docs')).toBe('acme-docs');
    for (const bad of ['ab', 'a'.repeat(33), '-acme', 'acme-', 'Acme', 'ac_me']) expect(() => checkHostname(bad)).toThrow(InvalidArgumentError);
  });

  // Attack: dots between two "@" made the address pattern quadratic (10 s for 50 KB).
  it('checks email addresses in linear time', () => {
    expect(checkEmail(' Ada@Example.co.uk ')).toBe('ada@example.co.uk');
    for (const bad of ['a@b', 'a@b.', 'a@.b', 'a@b..c', 'a b@c.d', 'a@b@c.d']) expect(() => checkEmail(bad)).toThrow(InvalidArgumentError);
    const started = performance.now();
    expect(() => checkEmail(`a@${'.'.repeat(50_000)}@`)).toThrow(InvalidArgumentError);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('normalizes email domains and names the bad one', () => {
    expect(normalizeEmailDomains([' Acme.Example ', 'acme.example', 'b.io'])).toEqual(['acme.example', 'b.io']);
    expect(() => normalizeEmailDomains(['ok.io', 'not a domain'])).toThrow(/emailDomains\[1\]/);
  });
});
