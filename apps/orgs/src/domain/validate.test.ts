import { describe, expect, it } from 'vitest';
import { checkLength, checkUri, InvalidArgumentError } from '@quire/service-kit';
import { checkHostname, normalizeEmailDomains } from './validate.ts';

describe('validation', () => {
  it('counts characters, not UTF-16 units, and names the field', () => {
    expect(checkLength('title', '😀😀', 2, 2)).toBe('😀😀');
    expect(() => checkLength('title', 'x', 2, 255)).toThrow(/title: must be between 2 and 255 characters \(got 1\)/);
  });

  it('takes hostnames of the subdomain pattern only', () => {
    expect(checkHostname('acme-docs')).toBe('acme-docs');
    for (const bad of ['ab', 'a'.repeat(33), '-acme', 'acme-', 'Acme', 'ac_me']) expect(() => checkHostname(bad)).toThrow(InvalidArgumentError);
  });

  it('normalizes email domains and names the bad one', () => {
    expect(normalizeEmailDomains([' Acme.Example ', 'acme.example', 'b.io'])).toEqual(['acme.example', 'b.io']);
    expect(() => normalizeEmailDomains(['ok.io', 'not a domain'])).toThrow(/emailDomains\[1\]/);
  });

  it('takes only http(s) URLs within the bound', () => {
    expect(checkUri('logo', 'https://x.example/a.png', 2048)).toBe('https://x.example/a.png');
    expect(() => checkUri('logo', 'javascript:alert(1)', 2048)).toThrow(/logo/);
    expect(() => checkUri('logo', `https://x.example/${'a'.repeat(2048)}`, 2048)).toThrow(/logo/);
  });
});
