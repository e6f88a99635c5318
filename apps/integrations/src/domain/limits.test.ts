import { describe, expect, it } from 'vitest';
import type { PublishIntegrationRequest } from '@quire/proto/integrations';
import { INTEGRATION } from '@quire/proto/limits';
import { overBound, refusal } from '@quire/service-kit/testing';
import { manifest } from '../../test/fixtures.ts';
import { checkListFilter, checkManifest, checkName, checkSecrets } from './manifest.ts';

// The bounds of @quire/proto/limits this service owns, refused one over with the field named (the
// gateway's limits.test.ts finds the same numbers in its OpenAPI document).

const publish = (over: Partial<PublishIntegrationRequest>) => () => checkManifest(manifest('my-integration', 'org', over));
const block = { id: 'b', title: 'Block', urlUnfurl: [] };
const source = { id: 's', title: 'Source', configuration: { componentId: 'c' } };
const link = { url: 'https://example.com', label: 'Home' };
const times = <T>(n: number, item: T) => Array.from({ length: n }, () => item);

describe('integrations refuses what is over the bounds of @quire/proto/limits', () => {
  it.each([
    ['INTEGRATION.name', 'name', () => checkName('name', overBound(INTEGRATION.name))],
    ['INTEGRATION.title', 'title', publish({ title: overBound(INTEGRATION.title) })],
    ['INTEGRATION.description', 'description', publish({ description: overBound(INTEGRATION.description) })],
    ['INTEGRATION.summary', 'summary', publish({ summary: overBound(INTEGRATION.summary) })],
    ['INTEGRATION.previewImages', 'previewImages', publish({ previewImages: times(INTEGRATION.previewImages.max + 1, 'iVBORw0KGgo=') })],
    ['INTEGRATION.externalLinks', 'externalLinks', publish({ externalLinks: times(INTEGRATION.externalLinks.max + 1, link) })],
    ['INTEGRATION.externalLinkLabel', 'externalLinks[0].label', publish({ externalLinks: [{ ...link, label: overBound(INTEGRATION.externalLinkLabel) }] })],
    ['INTEGRATION.contentSecurityPolicy', 'contentSecurityPolicy', publish({ contentSecurityPolicy: { text: overBound(INTEGRATION.contentSecurityPolicy), directives: {} } })],
    ['INTEGRATION.key', 'blocks[0].id', publish({ blocks: [{ ...block, id: overBound(INTEGRATION.key) }] })],
    ['INTEGRATION.blockTitle', 'contentSources[0].title', publish({ contentSources: [{ ...source, title: overBound(INTEGRATION.blockTitle) }] })],
    ['INTEGRATION.blockDescription', 'blocks[0].description', publish({ blocks: [{ ...block, description: overBound(INTEGRATION.blockDescription) }] })],
    ['INTEGRATION.blockIcon', 'blocks[0].icon', publish({ blocks: [{ ...block, icon: overBound(INTEGRATION.blockIcon) }] })],
    ['INTEGRATION.secrets', 'secrets', () => checkSecrets(Object.fromEntries(Array.from({ length: INTEGRATION.secrets.max + 1 }, (_, i) => [`k${i}`, 'v'])))],
    ['INTEGRATION.secretValue', 'secrets.k', () => checkSecrets({ k: overBound(INTEGRATION.secretValue) })],
    ['INTEGRATION.search', 'search', () => checkListFilter({ search: overBound(INTEGRATION.search) } as Parameters<typeof checkListFilter>[0])],
  ])('%s', (_bound, field, check) => {
    expect(refusal(check).startsWith(`${field}: `)).toBe(true);
  });
});
