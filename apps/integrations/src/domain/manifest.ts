import type {
  ContentSecurityPolicy,
  IntegrationBlock,
  IntegrationContentSource,
  IntegrationExternalLink,
  ListIntegrationsRequest,
  PublishIntegrationRequest,
} from '@quire/proto/integrations';
import { COMMON, INTEGRATION } from '@quire/proto/limits';
import { checkLength, checkOneOf, checkUri, InvalidArgumentError } from '@quire/service-kit';
import { CATEGORIES, RUNTIMES, SCOPES, TARGETS, VISIBILITIES } from '@quire/proto/integrations-values';

export type Runtime = (typeof RUNTIMES)[number];
export type Visibility = (typeof VISIBILITIES)[number];
export type Target = (typeof TARGETS)[number];

const NAME = /^[a-zA-Z0-9-_.]+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CSP_DIRECTIVE = /^[a-z][a-z-]{0,63}$/;
const CONFIGURATION_KEYS = ['account', 'space', 'site'];

/** Integration names and block domains share the reference's pattern and its bound. */
export function checkName(field: string, value: string): string {
  checkLength(field, value, INTEGRATION.name);
  if (!NAME.test(value)) throw new InvalidArgumentError(`${field}: only letters, digits, "-", "_" and "." are allowed`);
  return value;
}

/** Strict standard base64 (padded, no whitespace), decoded into bytes of their own (what Prisma stores). */
export function decodeBase64(field: string, value: string): Uint8Array<ArrayBuffer> {
  if (value.length === 0 || !BASE64.test(value)) throw new InvalidArgumentError(`${field}: must be base64`);
  return new Uint8Array(Buffer.from(value, 'base64'));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The domain and every parent domain of the hosts a block unfurls, so that `blockDomain=youtube.com`
 * finds a block of `https://www.youtube.com/watch*`.
 */
export function unfurlDomains(blocks: { urlUnfurl: string[] }[]): string[] {
  const out = new Set<string>();
  for (const pattern of blocks.flatMap((b) => b.urlUnfurl)) {
    const host = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/?#]*@)?([^/?#:]+)/i
      .exec(pattern)?.[1]
      ?.toLowerCase()
      .replace(/^(\*\.)+/, '');
    if (!host || host.includes('*')) continue;
    const labels = host.split('.');
    for (let i = 0; i < Math.max(labels.length - 1, 1); i++) out.add(labels.slice(i).join('.'));
  }
  return [...out].sort();
}

/** What blocks and content sources both have: an id, a title, and maybe a description and an icon. */
function checkListed(f: string, x: { id: string; title: string; description?: string; icon?: string }) {
  checkLength(`${f}.id`, x.id, INTEGRATION.key);
  checkLength(`${f}.title`, x.title, INTEGRATION.blockTitle);
  if (x.description !== undefined) checkLength(`${f}.description`, x.description, INTEGRATION.blockDescription);
  if (x.icon !== undefined) checkLength(`${f}.icon`, x.icon, INTEGRATION.blockIcon);
  return { id: x.id, title: x.title, ...(x.description !== undefined ? { description: x.description } : {}), ...(x.icon !== undefined ? { icon: x.icon } : {}) };
}

function checkBlocks(blocks: IntegrationBlock[]): IntegrationBlock[] {
  return blocks.map((b, i) => {
    const f = `blocks[${i}]`;
    const listed = checkListed(f, b);
    b.urlUnfurl.forEach((u, j) => checkLength(`${f}.urlUnfurl[${j}]`, u, COMMON.url));
    if (b.markdown) {
      checkLength(`${f}.markdown.codeblock`, b.markdown.codeblock, INTEGRATION.key);
      checkLength(`${f}.markdown.body`, b.markdown.body, INTEGRATION.key);
    }
    return { ...listed, urlUnfurl: b.urlUnfurl, ...(b.markdown ? { markdown: { codeblock: b.markdown.codeblock, body: b.markdown.body } } : {}) };
  });
}

function checkContentSources(sources: IntegrationContentSource[]): IntegrationContentSource[] {
  return sources.map((s, i) => {
    const f = `contentSources[${i}]`;
    const listed = checkListed(f, s);
    checkLength(`${f}.configuration.componentId`, s.configuration?.componentId ?? '', INTEGRATION.key);
    return { ...listed, configuration: { componentId: s.configuration!.componentId } };
  });
}

function checkExternalLinks(links: IntegrationExternalLink[]): IntegrationExternalLink[] {
  if (links.length > INTEGRATION.externalLinks.max) throw new InvalidArgumentError(`externalLinks: at most ${INTEGRATION.externalLinks.max} links`);
  return links.map((l, i) => ({ url: checkUri(`externalLinks[${i}].url`, l.url), label: checkLength(`externalLinks[${i}].label`, l.label, INTEGRATION.externalLinkLabel) }));
}

/** `{account, space, site}`, each a settings schema (`properties`) or a ContentKit component (`componentId`). */
function checkConfigurations(value: Record<string, unknown>): Record<string, unknown> {
  for (const [key, conf] of Object.entries(value)) {
    if (!CONFIGURATION_KEYS.includes(key)) throw new InvalidArgumentError(`configurations.${key}: only account, space and site are configurable`);
    const schema = isObject(conf) && isObject(conf.properties);
    const component = isObject(conf) && typeof conf.componentId === 'string' && conf.componentId.length > 0;
    if (!schema && !component) throw new InvalidArgumentError(`configurations.${key}: must have "properties" (an object) or "componentId"`);
  }
  return value;
}

function checkContentSecurityPolicy(csp: ContentSecurityPolicy): string | Record<string, string> {
  if (csp.text !== undefined) return checkLength('contentSecurityPolicy', csp.text, INTEGRATION.contentSecurityPolicy);
  for (const [name, value] of Object.entries(csp.directives)) {
    if (!CSP_DIRECTIVE.test(name)) throw new InvalidArgumentError(`contentSecurityPolicy.${name}: not a directive name`);
    checkLength(`contentSecurityPolicy.${name}`, value, INTEGRATION.contentSecurityPolicy);
  }
  return csp.directives;
}

/** A publish request checked against the reference's bounds and GitBook's enumerations, ready to store. */
export function checkManifest(req: PublishIntegrationRequest) {
  const blocks = checkBlocks(req.blocks);
  const contentSources = checkContentSources(req.contentSources);
  if (req.previewImages.length > INTEGRATION.previewImages.max) throw new InvalidArgumentError(`previewImages: at most ${INTEGRATION.previewImages.max} images`);
  if (!req.script) throw new InvalidArgumentError('script: is required');
  return {
    name: checkName('name', req.name),
    title: checkLength('title', req.title, INTEGRATION.title),
    description: checkLength('description', req.description, INTEGRATION.description),
    summary: req.summary === undefined ? null : checkLength('summary', req.summary, INTEGRATION.summary),
    previewImages: req.previewImages.map((img, i) => decodeBase64(`previewImages[${i}]`, img)),
    icon: req.icon === undefined ? null : decodeBase64('icon', req.icon),
    runtime: checkOneOf('runtime', req.runtime || 'v1', RUNTIMES),
    visibility: checkOneOf('visibility', req.visibility || 'public', VISIBILITIES),
    target: checkOneOf('target', req.target || 'all', TARGETS),
    scopes: [...new Set(req.scopes.map((s, i) => checkOneOf(`scopes[${i}]`, s, SCOPES)))],
    categories: [...new Set(req.categories.map((c, i) => checkOneOf(`categories[${i}]`, c, CATEGORIES)))],
    blocks,
    contentSources,
    externalLinks: checkExternalLinks(req.externalLinks),
    configurations: req.configurations === undefined ? null : checkConfigurations(req.configurations),
    contentSecurityPolicy: req.contentSecurityPolicy === undefined ? null : checkContentSecurityPolicy(req.contentSecurityPolicy),
    script: req.script,
    blockDomains: unfurlDomains(blocks),
    hasBlocks: blocks.length > 0,
    hasContentSources: contentSources.length > 0,
  };
}

export type Manifest = ReturnType<typeof checkManifest>;

export function checkSecrets(values: Record<string, string>): Record<string, string> {
  const entries = Object.entries(values);
  if (entries.length > INTEGRATION.secrets.max) throw new InvalidArgumentError(`secrets: at most ${INTEGRATION.secrets.max} secrets`);
  for (const [key, value] of entries) {
    checkLength('secrets (a key)', key, INTEGRATION.key);
    checkLength(`secrets.${key}`, value, INTEGRATION.secretValue);
  }
  return values;
}

/** The list filters checked; values the enumerations do not know are a 400, not an empty list. */
export function checkListFilter(req: ListIntegrationsRequest) {
  return {
    search: req.search?.trim() ? checkLength('search', req.search.trim(), INTEGRATION.search) : undefined,
    category: req.category ? checkOneOf('category', req.category, CATEGORIES) : undefined,
    blockDomain: req.blockDomain ? checkName('blockDomain', req.blockDomain).toLowerCase() : undefined,
    blocks: req.blocks,
    contentSources: req.contentSources,
    owner: req.owner || undefined,
    scope: req.scope ? checkOneOf('scope', req.scope, SCOPES) : undefined,
    target: req.target ? checkOneOf('target', req.target, TARGETS) : undefined,
  };
}

export type ListFilter = ReturnType<typeof checkListFilter>;
