import { isDeepStrictEqual } from 'node:util';
import { InvalidArgumentError } from '@quire/service-kit';

// A site's customization is GitBook's SiteCustomizationSettings: the gateway checks its shape,
// this service keeps it whole and fills in GitBook's defaults for what was never set. A site's
// premium features are read from what it uses: its visibility, domain, structure and settings.

export type Settings = Record<string, unknown>;

const color = (hex: string) => ({ light: hex, dark: hex });

/** The settings of a site never customized, as GitBook answers them. */
export const DEFAULT_CUSTOMIZATION: Settings = {
  styling: {
    theme: 'clean',
    primaryColor: color('#346DDB'),
    infoColor: color('#787878'),
    successColor: color('#00C950'),
    warningColor: color('#FE9A00'),
    dangerColor: color('#FB2C36'),
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'light', toggeable: true },
  pdf: { enabled: true },
  feedback: { enabled: false },
  ai: { mode: 'none' },
  advancedCustomization: { enabled: true },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { externalAI: true, markdown: true },
  git: { showEditLink: false },
  privacyPolicy: {},
  socialPreview: {},
  insights: { trackingCookie: true },
};

// Well above any real settings object (a header of links, footer groups); stored JSON stays bounded.
export const CUSTOMIZATION_MAX_BYTES = 64 * 1024;

const isObject = (v: unknown): v is Settings => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The settings a request carries: a JSON object within the bound. */
export function parseCustomization(json: string): Settings {
  if (Buffer.byteLength(json) > CUSTOMIZATION_MAX_BYTES) throw new InvalidArgumentError(`customization: at most ${CUSTOMIZATION_MAX_BYTES} bytes`);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new InvalidArgumentError('customization: not JSON');
  }
  if (!isObject(value)) throw new InvalidArgumentError('customization: must be an object');
  return value;
}

/** The site's settings: what was set over the defaults, one top-level setting at a time. */
export const customizationOf = (stored: unknown): Settings => ({ ...DEFAULT_CUSTOMIZATION, ...(isObject(stored) ? stored : {}) });

export interface SiteFeature {
  id: string;
  plan: string;
  frozen: boolean;
  customizations: string[];
}

export interface FeatureSource {
  type: string;
  visibility: string;
  hostname: string | null;
  proxy: string | null;
  adaptiveContent: boolean | null;
  sectionCount: number;
  siteSpaceCount: number;
  customization: unknown;
}

const VISIBILITY_FEATURES: Record<string, [string, string]> = {
  public: ['sites-public-visibility', 'basic'],
  unlisted: ['sites-unlisted-visibility', 'premium'],
  'share-link': ['sites-share-links', 'premium'],
  'visitor-auth': ['sites-visitor-authentication', 'ultimate'],
};

/** The advanced customizations (GitBook's SiteCustomizationFeature) the settings use. */
export function advancedCustomizations(stored: unknown): string[] {
  const set = isObject(stored) ? stored : {};
  const styling = isObject(set.styling) ? set.styling : {};
  const header = isObject(set.header) ? set.header : {};
  const footer = isObject(set.footer) ? set.footer : {};
  const defaults = DEFAULT_CUSTOMIZATION.styling as Settings;
  const used: [string, boolean][] = [
    ['header-logo', header.logo !== undefined],
    ['theme-preset', styling.theme !== undefined && styling.theme !== defaults.theme],
    ['premium-fonts', isObject(styling.font) || isObject(styling.monospaceFont)],
    ['custom-icons', styling.icons !== undefined && styling.icons !== defaults.icons],
    ['footer-logo', footer.logo !== undefined],
    ['footer-links', Array.isArray(footer.groups) && footer.groups.length > 0],
    ['footer-copyright', typeof footer.copyright === 'string' && footer.copyright !== ''],
    [
      'semantic-colors',
      (['infoColor', 'successColor', 'warningColor', 'dangerColor'] as const).some((k) => styling[k] !== undefined && !isDeepStrictEqual(styling[k], defaults[k])),
    ],
  ];
  return used.filter(([, on]) => on).map(([id]) => id);
}

/**
 * The premium features the site uses, each with the least plan offering it. Quire gates no
 * feature by site type, so none is ever frozen.
 */
export function siteFeatures(site: FeatureSource): SiteFeature[] {
  const advanced = advancedCustomizations(site.customization);
  const visibility = VISIBILITY_FEATURES[site.visibility];
  const used: [string, string, boolean, string[]?][] = [
    ...(visibility ? [[visibility[0], visibility[1], true] as [string, string, boolean]] : []),
    ['sites-custom-domain', 'premium', site.hostname !== null],
    ['sites-custom-subdirectory', 'ultimate', site.proxy !== null],
    ['sites-adaptive-content', 'ultimate', site.adaptiveContent === true],
    ['sites-sections', 'ultimate', site.sectionCount > 0],
    // More site-spaces than sections: some section (or the root) offers variants.
    ['sites-multivariant-site', 'premium', site.siteSpaceCount > Math.max(site.sectionCount, 1)],
    ['sites-basic-customization', 'basic', site.customization !== null && site.customization !== undefined],
    ['sites-advanced-customization', 'ultimate', advanced.length > 0, advanced],
  ];
  return used.filter(([, , on]) => on).map(([id, plan, , customizations]) => ({ id, plan, frozen: false, customizations: customizations ?? [] }));
}
