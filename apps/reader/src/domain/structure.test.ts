import type { SiteSection, SiteSpace, SiteStructure } from '@quire/proto/sites';
import { describe, expect, it } from 'vitest';
import { allSiteSpaces, place, siteSpacePrefix } from './structure.ts';

const ss = (id: string, path: string, isDefault: boolean): SiteSpace => ({ id, siteId: 's', spaceId: `space-${id}`, title: id, path, default: isDefault });
const section = (id: string, path: string, isDefault: boolean, spaces: SiteSpace[]): SiteSection => ({ id, siteId: 's', title: id, default: isDefault, path, siteSpaces: spaces });

const guides = section('guides', 'guides', true, [ss('g', 'guides', true)]);
const apiSection = section('api', 'api', false, [ss('v1', 'v1', true), ss('v2', 'v2', false)]);
const sections: SiteStructure = { type: 'sections', items: [{ section: guides }, { group: { id: 'grp', siteId: 's', title: 'Reference', sections: [apiSection] } }] };

describe('place', () => {
  it('puts the default section and site-space at the root', () => {
    const p = place(sections, ['intro'])!;
    expect([p.section?.id, p.siteSpace.id, p.pagePath]).toEqual(['guides', 'g', ['intro']]);
    expect(p.tabs.map((t) => [t.section.id, t.group?.title])).toEqual([
      ['guides', undefined],
      ['api', 'Reference'],
    ]);
  });

  it('finds sections and variants by path, defaults left out or written', () => {
    expect(place(sections, ['api', 'x'])!.siteSpace.id).toBe('v1');
    expect(place(sections, ['api', 'v2', 'x', 'y'])).toMatchObject({ siteSpace: { id: 'v2' }, pagePath: ['x', 'y'] });
    expect(place(sections, ['guides', 'guides', 'x'])).toMatchObject({ siteSpace: { id: 'g' }, pagePath: ['x'] });
  });

  it('uses root site-spaces when the site has no sections, and nothing when it has none', () => {
    const flat: SiteStructure = { type: 'siteSpaces', items: [{ siteSpace: ss('en', 'en', true) }, { siteSpace: ss('fr', 'fr', false) }] };
    expect(place(flat, ['fr', 'a'])).toMatchObject({ siteSpace: { id: 'fr' }, pagePath: ['a'], variants: [{ id: 'en' }, { id: 'fr' }] });
    expect(place({ type: 'siteSpaces', items: [] }, [])).toBeNull();
  });

  it('writes canonical prefixes without defaults and lists every site-space', () => {
    expect(siteSpacePrefix(guides, guides.siteSpaces[0]!)).toEqual([]);
    expect(siteSpacePrefix(apiSection, apiSection.siteSpaces[1]!)).toEqual(['api', 'v2']);
    expect(allSiteSpaces(sections).map((x) => x.siteSpace.id)).toEqual(['g', 'v1', 'v2']);
  });
});
