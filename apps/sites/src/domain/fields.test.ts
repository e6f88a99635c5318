import { describe, expect, it } from 'vitest';
import { checkOneOf } from '@quire/service-kit';
import { checkHostname, checkProxy, checkSiteTitle, freePath, pathFromTitle, SITE_VISIBILITIES } from './fields.ts';

describe('site fields', () => {
  it('takes the reference hostname pattern', () => {
    expect(checkHostname('docs.example.com')).toBe('docs.example.com');
    expect(() => checkHostname('example.com')).toThrow(/hostname: must be/);
    expect(() => checkHostname('Docs.Example.com')).toThrow(/hostname/);
    expect(() => checkHostname(`${'a'.repeat(64)}.example.com`)).toThrow(/hostname/);
  });

  it('takes the reference proxy pattern: a host and a path', () => {
    expect(checkProxy('example.com/docs')).toBe('example.com/docs');
    expect(checkProxy('www.example.com/developer/docs')).toBe('www.example.com/developer/docs');
    expect(() => checkProxy('example.com')).toThrow(/proxy: must be a host followed by a path/);
    expect(() => checkProxy('https://example.com/docs')).toThrow(/proxy/);
    expect(() => checkProxy(`example.com/${'a'.repeat(510)}`)).toThrow(/proxy: must be between 1 and 512/);
  });

  it('bounds titles and enumerations', () => {
    expect(() => checkSiteTitle('a')).toThrow(/title: must be between 2 and 128 characters \(got 1\)/);
    expect(() => checkSiteTitle('a'.repeat(129))).toThrow(/title/);
    expect(() => checkOneOf('visibility', 'private', SITE_VISIBILITIES)).toThrow(/visibility: must be one of public, unlisted, share-link, visitor-auth/);
  });

  it('makes paths from titles, unique among their siblings', () => {
    expect(pathFromTitle('Getting Started — Guide!')).toBe('getting-started-guide');
    expect(pathFromTitle('Café')).toBe('cafe');
    expect(pathFromTitle('???')).toBe('item');
    expect(pathFromTitle('x'.repeat(200)).length).toBe(90);
    expect(freePath('guide', ['guide', 'guide-2'])).toBe('guide-3');
    expect(freePath('guide', [])).toBe('guide');
  });
});
