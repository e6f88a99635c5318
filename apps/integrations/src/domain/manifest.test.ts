import { describe, expect, it } from 'vitest';
import type { PublishIntegrationRequest } from '@quire/proto/integrations';
import { InvalidArgumentError } from '@quire/service-kit';
import { manifest } from '../../test/fixtures.ts';
import { checkListFilter, checkManifest, checkName, checkSecrets, decodeBase64, unfurlDomains } from './manifest.ts';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]).toString('base64');

const request = (over: Partial<PublishIntegrationRequest> = {}) => manifest('my-integration', 'org', over);

const invalid = (fn: () => unknown, message: RegExp) => {
  expect(fn).toThrow(InvalidArgumentError);
  expect(fn).toThrow(message);
};

describe('checkManifest', () => {
  it('fills the defaults and derives the filter columns', () => {
    const m = checkManifest(
      request({
        blocks: [{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.youtube.com/watch*', 'https://*.vimeo.com/*'] }],
        scopes: ['space:content:read', 'space:content:read'],
      }),
    );
    expect(m).toMatchObject({ runtime: 'v1', visibility: 'public', target: 'all', summary: null, icon: null, configurations: null, contentSecurityPolicy: null });
    expect(m.scopes).toEqual(['space:content:read']);
    expect(m.hasBlocks).toBe(true);
    expect(m.hasContentSources).toBe(false);
    expect(m.blockDomains).toEqual(['vimeo.com', 'www.youtube.com', 'youtube.com']);
    expect(m.blocks).toEqual([{ id: 'embed', title: 'Embed', urlUnfurl: ['https://www.youtube.com/watch*', 'https://*.vimeo.com/*'] }]);
  });

  it('enforces the bounds of the reference, naming the field', () => {
    invalid(() => checkManifest(request({ title: 'x' })), /^title: must be between 2 and 30/);
    invalid(() => checkManifest(request({ title: 'x'.repeat(31) })), /^title:/);
    expect(checkManifest(request({ title: 'x'.repeat(30) })).title).toHaveLength(30);
    invalid(() => checkManifest(request({ description: 'x'.repeat(101) })), /^description: must be at most 100/);
    invalid(() => checkManifest(request({ summary: 'x'.repeat(2049) })), /^summary:/);
    expect(checkManifest(request({ summary: 'x'.repeat(2048) })).summary).toHaveLength(2048);
    invalid(() => checkManifest(request({ previewImages: [PNG, PNG, PNG, PNG] })), /^previewImages: at most 3/);
    invalid(() => checkManifest(request({ previewImages: [PNG, 'not base64!'] })), /^previewImages\[1\]: must be base64/);
    invalid(() => checkManifest(request({ icon: 'abc' })), /^icon: must be base64/);
    invalid(() => checkManifest(request({ script: '' })), /^script: is required/);
    invalid(() => checkManifest(request({ name: 'has space' })), /^name:/);
    invalid(() => checkManifest(request({ name: 'a'.repeat(101) })), /^name:/);
  });

  it('accepts only the enumerations of GitBook', () => {
    invalid(() => checkManifest(request({ runtime: 'v3' })), /^runtime: must be one of v1, v2/);
    invalid(() => checkManifest(request({ visibility: 'secret' })), /^visibility:/);
    invalid(() => checkManifest(request({ target: 'page' })), /^target:/);
    invalid(() => checkManifest(request({ scopes: ['space:content:read', 'space:everything'] })), /^scopes\[1\]:/);
    invalid(() => checkManifest(request({ categories: ['games'] })), /^categories\[0\]:/);
    expect(checkManifest(request({ runtime: 'v2', visibility: 'unlisted', target: 'space', categories: ['analytics'] }))).toMatchObject({
      runtime: 'v2',
      visibility: 'unlisted',
      target: 'space',
      categories: ['analytics'],
    });
  });

  it('checks blocks, content sources, links, configurations and the content security policy', () => {
    invalid(() => checkManifest(request({ blocks: [{ id: 'b', title: 'B', urlUnfurl: [] }] })), /^blocks\[0\]\.title:/);
    invalid(
      () => checkManifest(request({ contentSources: [{ id: 's', title: 'Source', configuration: { componentId: '' } }] })),
      /^contentSources\[0\]\.configuration\.componentId:/,
    );
    const links = Array.from({ length: 6 }, () => ({ url: 'https://x.example', label: 'X' }));
    invalid(() => checkManifest(request({ externalLinks: links })), /^externalLinks: at most 5/);
    invalid(() => checkManifest(request({ externalLinks: [{ url: 'javascript:alert(1)', label: 'X' }] })), /^externalLinks\[0\]\.url:/);
    invalid(() => checkManifest(request({ configurations: { page: { properties: {} } } })), /^configurations\.page:/);
    invalid(() => checkManifest(request({ configurations: { space: { title: 'no schema' } } })), /^configurations\.space:/);
    expect(checkManifest(request({ configurations: { space: { properties: {} }, site: { componentId: 'c' } } })).configurations).toEqual({
      space: { properties: {} },
      site: { componentId: 'c' },
    });
    invalid(() => checkManifest(request({ contentSecurityPolicy: { directives: { 'Script Src': 'self' } } })), /^contentSecurityPolicy\.Script Src:/);
    expect(checkManifest(request({ contentSecurityPolicy: { text: "default-src 'self'", directives: {} } })).contentSecurityPolicy).toBe("default-src 'self'");
    expect(checkManifest(request({ contentSecurityPolicy: { directives: { 'script-src': "'self'" } } })).contentSecurityPolicy).toEqual({ 'script-src': "'self'" });
  });
});

describe('small rules', () => {
  it('takes only strict base64', () => {
    expect(Buffer.from(decodeBase64('icon', 'aGk=')).toString()).toBe('hi');
    for (const bad of ['', 'aGk', 'aG k=', 'aGk=\n', '@@@@']) expect(() => decodeBase64('icon', bad)).toThrow(/^icon: must be base64/);
  });

  it('matches names against the pattern and 100 characters', () => {
    expect(checkName('name', 'a-b_c.d9')).toBe('a-b_c.d9');
    expect(() => checkName('name', 'a/b')).toThrow(/^name:/);
    expect(() => checkName('name', '')).toThrow(/^name:/);
  });

  it('finds the domains a block unfurls, with their parents', () => {
    expect(unfurlDomains([{ urlUnfurl: ['https://docs.google.com/document/*', 'figma.com/file/*', 'https://*/nothing'] }])).toEqual(['docs.google.com', 'figma.com', 'google.com']);
  });

  it('bounds the secrets', () => {
    expect(checkSecrets({ TOKEN: 'x' })).toEqual({ TOKEN: 'x' });
    expect(() => checkSecrets(Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`K${i}`, 'v'])))).toThrow(/^secrets: at most 20/);
    expect(() => checkSecrets({ TOKEN: 'x'.repeat(10_001) })).toThrow(/^secrets\.TOKEN:/);
  });

  it('checks the list filters', () => {
    expect(checkListFilter({ search: '  Acme ', blockDomain: 'YouTube.com' })).toMatchObject({ search: 'Acme', blockDomain: 'youtube.com' });
    expect(() => checkListFilter({ category: 'games' })).toThrow(/^category:/);
    expect(() => checkListFilter({ scope: 'nope' })).toThrow(/^scope:/);
    expect(() => checkListFilter({ target: 'page' })).toThrow(/^target:/);
    expect(() => checkListFilter({ blockDomain: 'a/b' })).toThrow(/^blockDomain:/);
  });
});
