import { titleSlug } from '@quire/document/slug';
import { COMMON, SITE } from '@quire/proto/limits';
import { checkLength, InvalidArgumentError } from '@quire/service-kit';

// The enumerations and bounds of the API reference ("Site", "SiteSection", "SiteSectionGroup",
// "SiteSpace", "ShareLink", "Limits"), checked here too: the gateway is not the only caller.

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth'] as const;
export const AGENTS_CONTEXTS = ['excluded', 'included'] as const;
/** `spaces` keywords of create-site (GitBook's spec): each creates a new space for the site. */
export const SPACE_KEYWORDS = ['empty', 'sample'] as const;

export type SiteVisibility = (typeof SITE_VISIBILITIES)[number];

export const DEFAULTS = { type: 'basic', visibility: 'public', agentsContext: 'excluded', title: 'Untitled site' } as const;

function checkPattern(field: string, value: string, pattern: RegExp, what: string): string {
  if (!pattern.test(value)) throw new InvalidArgumentError(`${field}: must be ${what} (got "${value}")`);
  return value;
}

const HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
const PROXY = /^([\w-]+\.)*[\w-]+\.[a-zA-Z]{2,}(\/[\w-]+)+$/;

export const checkSiteTitle = (v: string) => checkLength('title', v, SITE.title);
export const checkBasename = (v: string) => checkLength('basename', v, SITE.basename);
export const checkHostname = (v: string) =>
  checkPattern('hostname', checkLength('hostname', v, { min: 1, max: SITE.hostname.max }), HOSTNAME, 'a lower-case host name of at least three labels, such as docs.example.com');
export const checkProxy = (v: string) =>
  checkPattern('proxy', checkLength('proxy', v, { min: 1, max: SITE.proxy.max }), PROXY, 'a host followed by a path, such as example.com/docs');
export const checkSectionTitle = (v: string) => checkLength('title', v, SITE.sectionTitle);
export const checkDescription = (v: string) => checkLength('description', v, SITE.description);
export const checkPath = (v: string) => checkLength('path', v, SITE.path);
export const checkCondition = (v: string) => checkLength('condition', v, SITE.condition);
export const checkGroupTitle = (v: string) => checkLength('title', v, SITE.groupTitle);
export const checkIcon = (v: string) => checkLength('icon', v, COMMON.icon);
export const checkShareLinkName = (v: string) => checkLength('name', v, SITE.shareLinkName);

/** A path for a title, cut below the path bound; `fallback` when nothing is left. */
export const pathFromTitle = (title: string, fallback = 'item'): string => titleSlug(title, { maxLength: SITE.path.max - 10, fallback });

/** `base`, or `base-2`, `base-3`... : the first not in `taken`. */
export function freePath(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) if (!used.has(`${base}-${n}`)) return `${base}-${n}`;
}
