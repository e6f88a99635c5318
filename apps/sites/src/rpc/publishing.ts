import type { PublishedSiteView, SitesServiceServer } from '@quire/proto/sites';
import { checkOneOf, InvalidArgumentError, type Handlers } from '@quire/service-kit';
import { seal, unseal } from '@quire/service-kit/sealed';
import { visitorAccess } from '../domain/access.ts';
import { visibleTree } from '../domain/structure.ts';
import { newVisitorKey, verifyVisitorToken } from '../domain/visitor-token.ts';
import { presentSite, presentStructure } from '../presenters.ts';
import type { SiteRecord } from '../store/index.ts';
import { editable, siteNotFound, type Deps } from './deps.ts';

type H = Pick<Handlers<SitesServiceServer>, 'viewPublishedSite' | 'getPublishingAuth' | 'updatePublishingAuth' | 'regeneratePublishingAuth'>;

export const VISITOR_AUTH_BACKENDS = ['custom', 'integration'] as const;

// The sealed key opens only on its own site's row.
const keyContext = (siteId: string) => `sites:visitor-key:${siteId}`;

function checkFallbackUrl(v: string): string {
  let url: URL | undefined;
  try {
    url = new URL(v);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || v.length > 2048) {
    throw new InvalidArgumentError(`fallbackURL: must be an http or https URL of at most 2048 characters (got "${v.slice(0, 100)}")`);
  }
  return v;
}

export function publishingHandlers(deps: Deps): H {
  const { store, secretsKey } = deps;

  const keyOf = (site: SiteRecord): string | null => (site.visitorKeySealed ? unseal<string>(site.visitorKeySealed, keyContext(site.id), secretsKey) : null);
  const sealedKey = (siteId: string) => new Uint8Array(seal(newVisitorKey(), keyContext(siteId), secretsKey));

  const present = (site: SiteRecord) => ({ backend: site.visitorAuthBackend, privateKey: keyOf(site)!, fallbackUrl: site.visitorFallbackUrl ?? undefined });

  /** The site with its visitor key, made on first use. */
  async function withKey(site: SiteRecord): Promise<SiteRecord> {
    return site.visitorKeySealed ? site : store.setVisitorAuth(site.id, { visitorKeySealed: sealedKey(site.id) });
  }

  return {
    async viewPublishedSite(req) {
      const address = req.hostname !== undefined ? { hostname: req.hostname.toLowerCase() } : req.path ? { organizationId: req.path.organizationId, site: req.path.site } : null;
      const site = address && (address.hostname || ('site' in address && address.site && address.organizationId)) ? await store.findPublishedSite(address) : null;
      if (!site) throw siteNotFound(req.path?.site ?? req.hostname ?? '');
      const activeShareKey = site.visibility === 'share-link' && !!req.shareKey && (await store.activeShareKey(site.id, req.shareKey));
      const key = site.visibility === 'visitor-auth' && req.visitorToken ? keyOf(site) : null;
      const claims = key && req.visitorToken ? await verifyVisitorToken(req.visitorToken, key) : null;
      const access = visitorAccess(site.visibility, { activeShareKey, validToken: claims !== null });
      const view: PublishedSiteView = {
        site: presentSite(site),
        structure: undefined,
        access,
        visitorTokenInvalid: !!req.visitorToken && site.visibility === 'visitor-auth' && claims === null,
        claimsJson: JSON.stringify(claims ?? {}),
        fallbackUrl: site.visibility === 'visitor-auth' ? (site.visitorFallbackUrl ?? undefined) : undefined,
      };
      if (access === 'granted') view.structure = presentStructure(site, visibleTree(await store.tree(site.id), claims ?? {}));
      return view;
    },

    async getPublishingAuth(req, ctx) {
      return present(await withKey(await editable(deps, req.site, ctx)));
    },

    async updatePublishingAuth(req, ctx) {
      const backend = req.backend !== undefined ? checkOneOf('backend', req.backend, VISITOR_AUTH_BACKENDS) : undefined;
      const fallback = req.setFallbackUrl ? { visitorFallbackUrl: req.fallbackUrl !== undefined ? checkFallbackUrl(req.fallbackUrl) : null } : {};
      const site = await editable(deps, req.site, ctx);
      return present(
        await store.setVisitorAuth(site.id, {
          ...(backend !== undefined ? { visitorAuthBackend: backend } : {}),
          ...fallback,
          ...(site.visitorKeySealed ? {} : { visitorKeySealed: sealedKey(site.id) }),
        }),
      );
    },

    async regeneratePublishingAuth(req, ctx) {
      const site = await editable(deps, req.site, ctx);
      return present(await store.setVisitorAuth(site.id, { visitorKeySealed: sealedKey(site.id) }));
    },
  };
}
