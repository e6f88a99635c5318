import type { OrgsServiceServer, SsoLogin } from '@quire/proto/orgs';
import { SignInProviderKind } from '@quire/proto/orgs';
import { InvalidArgumentError, NotFoundError, PermissionDeniedError, type Handlers } from '@quire/service-kit';
import { newId } from '@quire/service-kit/ids';
import { unseal } from '@quire/service-kit/sealed';
import { isActive } from '../domain/saml.ts';
import { checkSignInAllowed, clientSecretContext, displayNameOf, emailDomainOf, normalizeEmail, samlEmail, verifiedOidcEmail } from '../domain/sso.ts';
import { oidcAuthorizationRequest, oidcCallbackClaims, type OidcClientSettings } from '../sso/oidc.ts';
import { samlAuthorizeUrl, samlMetadata, samlResponseProfile, type SamlService } from '../sso/saml.ts';
import type { DbRole, Store } from '../store/index.ts';
import type { Deps } from './deps.ts';

type H = Handlers<OrgsServiceServer>;

/** What a sign-in page offers: SAML providers that can sign in (fully configured), and OIDC providers. */
export function signInOffers({ saml, oidc }: Awaited<ReturnType<Store['signInProviders']>>): SsoLogin[] {
  return [
    ...saml.filter(isActive).map((p) => ({ kind: SignInProviderKind.SIGN_IN_PROVIDER_KIND_SAML, id: p.id, label: p.label })),
    ...oidc.map((p) => ({ kind: SignInProviderKind.SIGN_IN_PROVIDER_KIND_OIDC, id: p.id, label: p.label })),
  ];
}

function serviceOf(service: { entityId: string; acsUrl: string } | undefined): SamlService {
  if (!service?.entityId || !service.acsUrl) throw new InvalidArgumentError('service: entityId and acsUrl are required');
  return service;
}

type SsoProvider = { id: string; organizationId: string; defaultRole: DbRole | null; defaultTeamId: string | null };
type Ctx = Parameters<H['finishSamlSignIn']>[1];

export function ssoSignInHandlers({
  store,
  secretsKey,
  events,
}: Deps): Pick<H, 'startOidcSignIn' | 'finishOidcSignIn' | 'getSamlMetadata' | 'startSamlSignIn' | 'finishSamlSignIn' | 'listSignInProviders'> {
  async function oidcProvider(id: string) {
    const provider = await store.findOidcProvider(id);
    if (!provider) throw new NotFoundError('OIDC provider not found');
    const settings: OidcClientSettings = {
      issuer: provider.issuer,
      clientId: provider.clientId,
      clientSecret: unseal<string>(provider.clientSecret, clientSecretContext(provider.id), secretsKey),
    };
    return { provider, settings };
  }

  async function samlProvider(id: string) {
    const provider = await store.findSamlProvider(id);
    if (!provider) throw new NotFoundError('SAML provider not found');
    return provider;
  }

  /**
   * The person `vouch` proves, signed in to the provider's organization (made and joined on
   * first sign-in). A refusal is recorded in the organization's audit log before it is answered.
   */
  async function signIn(ctx: Ctx, method: 'oidc' | 'saml', provider: SsoProvider, vouch: () => Promise<{ email: string; name: unknown }>) {
    try {
      const { email, name } = await vouch();
      const result = await store.signInWithSso(
        provider.organizationId,
        { id: newId(), email, displayName: displayNameOf(email, name) },
        { role: provider.defaultRole, teamId: provider.defaultTeamId },
        (emailDomains, member) => checkSignInAllowed({ email, emailDomains, member }),
      );
      if (result.joined) {
        const details = { via: method, provider: provider.id, role: provider.defaultRole, team: provider.defaultTeamId };
        await events.emit(
          { ...ctx, userId: result.userId },
          { entity: 'member', verb: 'added', organizationId: provider.organizationId, target: { type: 'user', id: result.userId }, details },
        );
      }
      return { ...result, organizationId: provider.organizationId };
    } catch (err) {
      if (err instanceof PermissionDeniedError) {
        const details = { method, provider: provider.id, reason: err.message.slice(0, 500) };
        await events.emit({ ...ctx, userId: undefined }, { entity: 'user', verb: 'sign_in_failed', organizationId: provider.organizationId, details });
      }
      throw err;
    }
  }

  return {
    async startOidcSignIn({ oidcProviderId, redirectUri }) {
      const { settings } = await oidcProvider(oidcProviderId);
      return oidcAuthorizationRequest(settings, redirectUri);
    },

    async finishOidcSignIn(req, ctx) {
      const { provider, settings } = await oidcProvider(req.oidcProviderId);
      return signIn(ctx, 'oidc', provider, async () => {
        const claims = await oidcCallbackClaims(settings, {
          redirectUri: req.redirectUri,
          callbackUrl: req.callbackUrl,
          state: req.state,
          nonce: req.nonce,
          codeVerifier: req.codeVerifier,
        });
        return { email: verifiedOidcEmail(claims), name: claims.name };
      });
    },

    async getSamlMetadata({ samlProviderId, service }) {
      return { xml: samlMetadata(store, await samlProvider(samlProviderId), serviceOf(service)) };
    },

    async startSamlSignIn({ samlProviderId, service }) {
      return { redirectUrl: await samlAuthorizeUrl(store, await samlProvider(samlProviderId), serviceOf(service)) };
    },

    async finishSamlSignIn({ samlProviderId, service, samlResponse }, ctx) {
      const provider = await samlProvider(samlProviderId);
      const sp = serviceOf(service);
      return signIn(ctx, 'saml', provider, async () => {
        const profile = await samlResponseProfile(store, provider, sp, samlResponse);
        return { email: samlEmail(profile), name: profile.displayName ?? profile['http://schemas.microsoft.com/identity/claims/displayname'] };
      });
    },

    async listSignInProviders({ email }) {
      const address = normalizeEmail(email);
      if (!address) throw new InvalidArgumentError('email: not an email address');
      return { items: signInOffers(await store.signInProviders({ emailDomain: emailDomainOf(address) })) };
    },
  };
}
