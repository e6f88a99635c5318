import type { FastifyPluginAsyncTypebox, TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import { AUTH, COMMON } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { anonymousCaller } from '../plugins/auth.ts';
import { oidcServiceUrls, presentSignInOption, samlServiceUrls } from '../presenters/orgs.ts';
import { chars, errorResponses, Id } from '../schemas/common.ts';
import { SignInOption } from '../schemas/orgs.ts';
import { makeValueSigner, type LinkSecrets } from '../signing.ts';
import type { RouteDeps } from './context.ts';
import { operations } from './operation.ts';

const tags = ['sign-in'];
const op = operations(...tags);
/** How long a browser has to come back from its OIDC provider. */
const OIDC_STATE_TTL_S = 600;
/** A SAML response is a few kB; a signed one with certificates stays well under this. */

const OidcParams = Type.Object({ providerId: Id('OIDC provider id') });
const SamlParams = Type.Object({ samlProviderId: Id('SAML provider id') });
const Redirect = Type.Null({ description: 'Redirect (Location header)' });

interface OidcState {
  p: string;
  state: string;
  nonce: string;
  verifier: string;
}

/**
 * SSO sign-in on the gateway's origin: OIDC (authorization code with PKCE) and SAML (SP-initiated,
 * HTTP-POST ACS). The protocols run in orgs; this keeps the browser's side (the signed state
 * cookie, redirects, the form post) and ends, like every sign-in, in `sessions.issue`.
 */
const routes: FastifyPluginAsyncTypebox<RouteDeps & { publicUrl: string; stateSecrets: LinkSecrets }> = async (
  app,
  { services: { orgs }, urls, sessions, publicUrl, stateSecrets },
) => {
  const signer = makeValueSigner(stateSecrets, 'oidc-state');
  const secure = new URL(publicUrl).protocol === 'https:';
  const stateCookie = secure ? '__Secure-quire_oidc' : 'quire_oidc';
  const signedIn = urls.app('/');
  // Set and cleared with the same attributes, or the browser keeps it. SameSite=Lax: the provider's
  // redirect back is a top-level GET, which carries it.
  const stateCookieOptions = (providerId: string) => ({ httpOnly: true, secure, sameSite: 'lax' as const, path: `/auth/oidc/${providerId}` });
  /** What orgs needs in every SAML call: the provider, and this gateway's endpoints for it. */
  const samlService = (samlProviderId: string) => {
    const { entityID, acsURL } = samlServiceUrls(samlProviderId, urls);
    return { samlProviderId, service: { entityId: entityID, acsUrl: acsURL } };
  };
  /** Every SSO sign-in ends alike: a session cookie, then the app. */
  const completeSignIn = async (req: FastifyRequest, reply: FastifyReply, userId: string, method: 'oidc' | 'saml') => {
    await sessions.issue(req, reply, userId, method);
    return reply.redirect(signedIn, 303);
  };

  app.get(
    '/providers',
    op({
      operationId: 'listSignInProviders',
      security: [],
      summary: 'The SSO providers a sign-in page offers for an email address',
      description: "Those of the organizations whose email domains include the address's domain: type, id, label and start URL only. Unknown domains answer an empty list.",
      querystring: Type.Object({ email: Type.String(chars(COMMON.emailAddress)) }),
      response: { 200: Type.Object({ items: Type.Array(SignInOption) }) },
    }),
    async (req, reply) => {
      const { items } = await orgs.listSignInProviders({ email: req.query.email }, anonymousCaller(req));
      void reply.header('cache-control', 'no-store');
      return { items: items.map((p) => presentSignInOption(p, urls)) };
    },
  );

  app.get(
    '/oidc/:providerId/start',
    op({
      operationId: 'startOIDCSignIn',
      security: [],
      summary: 'Start signing in with an OpenID Connect provider: redirects to it',
      params: OidcParams,
      response: { 302: Redirect },
    }),
    async (req, reply) => {
      const { providerId } = req.params;
      const { redirectURL } = oidcServiceUrls(providerId, urls);
      const start = await orgs.startOidcSignIn({ oidcProviderId: providerId, redirectUri: redirectURL }, anonymousCaller(req));
      const state: OidcState = { p: providerId, state: start.state, nonce: start.nonce, verifier: start.codeVerifier };
      void reply.setCookie(stateCookie, signer.sign(state, OIDC_STATE_TTL_S), { ...stateCookieOptions(providerId), maxAge: OIDC_STATE_TTL_S });
      return reply.redirect(start.authorizationUrl, 302);
    },
  );

  app.get(
    '/oidc/:providerId/callback',
    op({
      operationId: 'finishOIDCSignIn',
      security: [],
      summary: 'The OpenID Connect redirect URI: signs the user in and redirects to the app',
      description: 'Refused (403) when the state, nonce, PKCE verifier or issuer do not match, or the email is not verified.',
      params: OidcParams,
      response: { 303: Redirect },
    }),
    async (req, reply) => {
      const { providerId } = req.params;
      void reply.clearCookie(stateCookie, stateCookieOptions(providerId));
      const raw = req.cookies[stateCookie];
      const state = raw ? signer.verify<OidcState>(raw) : undefined;
      if (!state || state.p !== providerId) throw new InvalidArgumentError('state: no sign-in with this provider is under way in this browser (or it took too long); start again');
      const { redirectURL } = oidcServiceUrls(providerId, urls);
      const query = req.url.indexOf('?') >= 0 ? req.url.slice(req.url.indexOf('?')) : '';
      const { userId } = await orgs.finishOidcSignIn(
        { oidcProviderId: providerId, redirectUri: redirectURL, callbackUrl: redirectURL + query, state: state.state, nonce: state.nonce, codeVerifier: state.verifier },
        anonymousCaller(req),
      );
      return completeSignIn(req, reply, userId, 'oidc');
    },
  );

  app.get(
    '/saml/:samlProviderId/metadata',
    op({
      operationId: 'getSAMLServiceProviderMetadata',
      security: [],
      summary: "SAML service provider metadata (the entity id of the provider's `service`)",
      params: SamlParams,
      produces: ['application/samlmetadata+xml'],
      response: { 200: Type.String() },
    }),
    async (req, reply) => {
      const { xml } = await orgs.getSamlMetadata(samlService(req.params.samlProviderId), anonymousCaller(req));
      return reply.type('application/samlmetadata+xml').send(xml);
    },
  );

  app.get(
    '/saml/:samlProviderId/start',
    op({
      operationId: 'startSAMLSignIn',
      security: [],
      summary: 'Start signing in with a SAML identity provider: redirects to it with an AuthnRequest',
      params: SamlParams,
      response: { 302: Redirect },
    }),
    async (req, reply) => {
      const { redirectUrl } = await orgs.startSamlSignIn(samlService(req.params.samlProviderId), anonymousCaller(req));
      return reply.redirect(redirectUrl, 302);
    },
  );

  await app.register(async (scope) => {
    const acs = scope.withTypeProvider<TypeBoxTypeProvider>();
    // The identity provider posts the response as an HTML form; this scope alone reads forms.
    acs.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: AUTH.samlResponse.max }, (_req, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    acs.post(
      '/saml/:samlProviderId/acs',
      {
        schema: {
          operationId: 'samlAssertionConsumerService',
          tags,
          security: [],
          summary: 'The SAML assertion consumer service: checks the signed response, signs the user in and redirects to the app',
          description: 'Refused (403) when the signature, issuer, audience, recipient, time window or request do not match, or the assertion was used before.',
          params: SamlParams,
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Object({ SAMLResponse: Type.String(chars(AUTH.samlResponse)), RelayState: Type.Optional(Type.String(chars(AUTH.relayState))) }),
          response: { 303: Redirect, ...errorResponses },
        },
      },
      async (req, reply) => {
        const { userId } = await orgs.finishSamlSignIn({ ...samlService(req.params.samlProviderId), samlResponse: req.body.SAMLResponse }, anonymousCaller(req));
        return completeSignIn(req, reply, userId, 'saml');
      },
    );
  });
};

export default routes;
