import type { PublishedSiteView, SitesServiceServer } from '@quire/proto/sites';
import { COMMON } from '@quire/proto/limits';
import { checkOneOf, GRANTS, GrpcStatus, InvalidArgumentError, isServiceError, UnauthenticatedError, type CallContext, type Handlers } from '@quire/service-kit';
import { seal, unseal } from '@quire/service-kit/sealed';
import { allow } from '@quire/policy';
import { visitorAccess } from '../domain/access.ts';
import { customizationOf } from '../domain/customization.ts';
import { readerTree } from '../domain/structure.ts';
import { newVisitorKey, verifyVisitorToken, visitorKeyContext } from '../domain/visitor-token.ts';
import { presentSite, presentStructure } from '../presenters.ts';
import type { SiteRecord } from '../store/index.ts';
import { editable, siteNotFound, type Deps } from './deps.ts';

type H = Pick<Handlers<SitesServiceServer>, 'viewPublishedSite' | 'getPublishingAuth' | 'updatePublishingAuth' | 'regeneratePublishingAuth'>;

export const VISITOR_AUTH_BACKENDS = ['custom', 'integration'] as const;

function checkFallbackUrl(v: string): string {
  let url: URL | undefined;
  try {
    url = new URL(v);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:') || v.length > COMMON.url.max) {
    throw new InvalidArgumentError(`fallbackURL: must be an http or https URL of at most ${COMMON.url.max} characters (got "${v.slice(0, 100)}")`);
  }
  return v;
}

export function publishingHandlers(deps: Deps): H {
  const { store, secretsKey } = deps;

  const keyOf = (site: SiteRecord): string | null => (site.visitorKeySealed ? unseal<string>(site.visitorKeySealed, visitorKeyContext(site.id), secretsKey) : null);
  const sealedKey = (siteId: string) => new Uint8Array(seal(newVisitorKey(), visitorKeyContext(siteId), secretsKey));

  const present = (site: SiteRecord) => ({ backend: site.visitorAuthBackend, privateKey: keyOf(site)!, fallbackUrl: site.visitorFallbackUrl ?? undefined });

  /** The site with its visitor key, made on first use. */
  async function withKey(site: SiteRecord): Promise<SiteRecord> {
    return site.visitorKeySealed ? site : store.setVisitorAuth(site.id, { visitorKeySealed: sealedKey(site.id) });
  }

  /**
   * The member a browser proves to be, by its sign-in session (the reader on the gateway's origin)
   * or the gateway's grant for this very site (a custom hostname); undefined when neither holds.
   */
  async function memberOf(site: SiteRecord, req: { memberSession?: string; memberGrant?: string }, ctx: CallContext): Promise<string | undefined> {
    let userId: string | undefined;
    try {
      if (req.memberSession) userId = (await deps.orgs.authenticateSession({ session: req.memberSession }, ctx)).userId;
      else if (req.memberGrant) {
        const grant = await deps.identity.verifyGrant(req.memberGrant, GRANTS.siteMember, 'gateway');
        if (grant.site === site.id) userId = grant.sub;
      }
    } catch (err) {
      // An ended session or a stale grant is no member: the visitor is then asked like anyone.
      if (err instanceof UnauthenticatedError || (isServiceError(err) && err.code === GrpcStatus.UNAUTHENTICATED)) return undefined;
      throw err;
    }
    if (!userId) return undefined;
    const { role } = await deps.orgs.getMembership({ organizationId: site.organizationId, userId }, ctx);
    return allow(role, 'view', 'site') ? userId : undefined;
  }

  return {
    async viewPublishedSite(req, ctx) {
      const address = req.hostname !== undefined ? { hostname: req.hostname.toLowerCase() } : req.path ? { organizationId: req.path.organizationId, site: req.path.site } : null;
      const site = address && (address.hostname || ('site' in address && address.site && address.organizationId)) ? await store.findPublishedSite(address) : null;
      if (!site) throw siteNotFound(req.path?.site ?? req.hostname ?? '');
      const activeShareKey = site.visibility === 'share-link' && !!req.shareKey && (await store.activeShareKey(site.id, req.shareKey));
      const key = site.visibility === 'visitor-auth' && req.visitorToken ? keyOf(site) : null;
      const claims = key && req.visitorToken ? await verifyVisitorToken(req.visitorToken, key) : null;
      let access = visitorAccess(site.visibility, { activeShareKey, validToken: claims !== null });
      // Members read every published site of their organization; asked only when the visibility
      // refuses, so a valid visitor token goes first (its claims decide what shows) and the
      // session or grant is the fallback.
      const member = access !== 'granted' && (req.memberSession || req.memberGrant) ? !!(await memberOf(site, req, ctx)) : false;
      if (member) access = 'granted';
      const view: PublishedSiteView = {
        site: presentSite(site),
        structure: undefined,
        access,
        visitorTokenInvalid: !!req.visitorToken && site.visibility === 'visitor-auth' && claims === null,
        claimsJson: JSON.stringify(claims ?? {}),
        fallbackUrl: site.visibility === 'visitor-auth' ? (site.visitorFallbackUrl ?? undefined) : undefined,
        customizationJson: '',
        member,
      };
      if (access === 'granted') {
        view.structure = presentStructure(site, readerTree(await store.tree(site.id), { member, claims: claims ?? {} }));
        view.customizationJson = JSON.stringify(customizationOf(site.customization));
      }
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
