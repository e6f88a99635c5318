import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import { PermissionDeniedError } from '@quire/service-kit';
import type { SamlProviderRow, Store } from '../store/index.ts';

// The SAML service provider (@node-saml/node-saml): metadata, the AuthnRequest of SP-initiated
// sign-in, and the checks of a posted response.

/** How long an AuthnRequest waits for its response. */
const REQUEST_TTL_MS = 10 * 60_000;
const CLOCK_SKEW_MS = 60_000;

export interface SamlService {
  entityId: string;
  acsUrl: string;
}

/** Request ids awaiting their response, in PostgreSQL so that any orgs replica takes the response. */
function requestCache(store: Store): CacheProvider {
  const key = (id: string) => `saml-request:${id}`;
  return {
    async saveAsync(id, value) {
      return (await store.claimReplayKey(key(id), value, new Date(Date.now() + REQUEST_TTL_MS))) ? { value, createdAt: Date.now() } : null;
    },
    getAsync: (id) => store.replayKeyValue(key(id)),
    removeAsync: async (id) => (id === null ? null : store.dropReplayKey(key(id))),
  };
}

function serviceProvider(store: Store, provider: SamlProviderRow, service: SamlService): SAML {
  if (!provider.certificate || !provider.entityId || !provider.ssoUrl) throw new PermissionDeniedError('The SAML provider is not fully configured (ssoURL, entityID, certificate)');
  return new SAML({
    idpCert: provider.certificate,
    idpIssuer: provider.entityId,
    entryPoint: provider.ssoUrl,
    issuer: service.entityId,
    audience: service.entityId,
    callbackUrl: service.acsUrl,
    // The assertion must be signed by the provider's key; a signature over the whole response alone is not asked for.
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    // Only answers to our own AuthnRequests: an unsolicited response cannot be injected.
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    cacheProvider: requestCache(store),
  });
}

export function samlMetadata(store: Store, provider: SamlProviderRow, service: SamlService): string {
  return serviceProvider(store, provider, service).generateServiceProviderMetadata(null, null);
}

export function samlAuthorizeUrl(store: Store, provider: SamlProviderRow, service: SamlService): Promise<string> {
  return serviceProvider(store, provider, service).getAuthorizeUrlAsync('', undefined, {});
}

type XmlNode = { $?: Record<string, string>; [child: string]: unknown };
const children = (node: XmlNode | undefined, name: string) => (node?.[name] as XmlNode[] | undefined) ?? [];

/**
 * The profile of a response that passed every check: signature with the provider's certificate,
 * issuer, InResponseTo one of our live requests, audience, time window, recipient; and its
 * assertion id not seen before (kept until the assertion expires).
 */
export async function samlResponseProfile(store: Store, provider: SamlProviderRow, service: SamlService, samlResponse: string): Promise<Profile> {
  let profile: Profile | null;
  try {
    ({ profile } = await serviceProvider(store, provider, service).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (err) {
    throw new PermissionDeniedError(`The SAML response was refused: ${(err as Error).message}`);
  }
  if (!profile) throw new PermissionDeniedError('The SAML response carries no assertion');
  const assertion = (profile.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation').flatMap((c) => children(c, 'SubjectConfirmationData'));
  // node-saml does not check the recipient: an assertion made for another service must not sign in here.
  if (!confirmations.some((c) => c.$?.Recipient === service.acsUrl)) throw new PermissionDeniedError('The SAML response was refused: the recipient is not this service');
  const id = assertion?.$?.ID;
  const notOnOrAfter = children(assertion, 'Conditions')[0]?.$?.NotOnOrAfter;
  if (!id || !notOnOrAfter) throw new PermissionDeniedError('The SAML response was refused: the assertion has no ID or no NotOnOrAfter');
  const expires = new Date(Date.parse(notOnOrAfter) + CLOCK_SKEW_MS);
  if (!(await store.claimReplayKey(`saml-assertion:${provider.id}:${id}`, '', expires)))
    throw new PermissionDeniedError('The SAML response was refused: the assertion was already used');
  return profile;
}
