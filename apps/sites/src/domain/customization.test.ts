import { describe, expect, it } from 'vitest';
import { advancedCustomizations, customizationOf, DEFAULT_CUSTOMIZATION, siteFeatures, type FeatureSource } from './customization.ts';

const site = (over: Partial<FeatureSource> = {}): FeatureSource => ({
  type: 'basic',
  visibility: 'public',
  hostname: null,
  proxy: null,
  adaptiveContent: null,
  sectionCount: 0,
  siteSpaceCount: 1,
  customization: null,
  ...over,
});

describe('customization', () => {
  it('fills in the defaults for every setting never set, one top-level setting at a time', () => {
    expect(customizationOf(null)).toEqual(DEFAULT_CUSTOMIZATION);
    expect(customizationOf({ title: 'Docs', pdf: { enabled: false } })).toEqual({ ...DEFAULT_CUSTOMIZATION, title: 'Docs', pdf: { enabled: false } });
  });

  it('finds the advanced customizations in use, none for the defaults', () => {
    expect(advancedCustomizations(DEFAULT_CUSTOMIZATION)).toEqual([]);
    // Stored JSON (jsonb) comes back with its keys in another order: still the defaults.
    const reordered = { styling: { ...(DEFAULT_CUSTOMIZATION.styling as object), infoColor: { dark: '#787878', light: '#787878' } } };
    expect(advancedCustomizations(reordered)).toEqual([]);
    const styling = DEFAULT_CUSTOMIZATION.styling as Record<string, unknown>;
    expect(
      advancedCustomizations({
        styling: { ...styling, icons: 'duotone', dangerColor: { light: '#000000', dark: '#000000' }, font: { id: 'f', custom: true, fontFamily: 'F', fontFaces: [] } },
        header: { preset: 'default', links: [], logo: { light: 'https://x.test/l.png', dark: 'https://x.test/d.png' } },
        footer: { groups: [{ title: 'More', links: [] }], logo: { light: 'https://x.test/l.png', dark: 'https://x.test/d.png' } },
      }),
    ).toEqual(['header-logo', 'premium-fonts', 'custom-icons', 'footer-logo', 'footer-links', 'semantic-colors']);
  });

  it('lists the features a site uses with their plans, never frozen', () => {
    expect(siteFeatures(site())).toEqual([{ id: 'sites-public-visibility', plan: 'basic', frozen: false, customizations: [] }]);
    expect(siteFeatures(site({ visibility: 'visitor-auth', proxy: 'example.com/docs', sectionCount: 2, siteSpaceCount: 2 })).map((f) => f.id)).toEqual([
      'sites-visitor-authentication',
      'sites-custom-subdirectory',
      'sites-sections',
    ]);
    expect(siteFeatures(site({ sectionCount: 2, siteSpaceCount: 3 })).map((f) => f.id)).toContain('sites-multivariant-site');
  });
});
