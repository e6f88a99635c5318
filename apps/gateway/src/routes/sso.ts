import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { COMMON, SSO } from '@quire/proto/limits';
import type { FastifyInstance } from 'fastify';
import { type Caller } from '@quire/service-kit';
import { Role, roleFromApi } from '@quire/policy';
import { chars, Id, ListOf, ListQuery, NoContent, OrgParams, pageRequest, RoleOrGuest } from '../schemas/common.ts';
import { OidcProvider, SamlProvider } from '../schemas/orgs.ts';
import { presentOidcProvider, presentSamlProvider, presentSignInOption } from '../presenters/orgs.ts';
import type { Urls } from '../presenters/urls.ts';
import type { RouteDeps } from './context.ts';
import { done, operations, pageOf } from './operation.ts';

const op = operations('sso');

/** Both kinds of provider take a label and the defaults for new members around their protocol's settings. */
const providerBody = <T extends TProperties>(protocol: T) =>
  Type.Object({
    label: Type.String(chars(SSO.label)),
    ...protocol,
    defaultTeam: Type.Optional(Id('Team id')),
    defaultRole: Type.Optional(RoleOrGuest),
  });
interface ProviderBody {
  label: string;
  defaultTeam?: string;
  defaultRole?: Static<typeof RoleOrGuest>;
}

/** A kind of provider: its schemas, names and calls to orgs. `B` is its body, `P` its item route's params, `M` orgs' answer. */
interface ProviderKind<B, P extends { organizationId: string }, M> {
  /** The protocol as GitBook's operation ids spell it; its lower case is the routes' segment and `{protocol}ProviderId` their item parameter. */
  protocol: 'SAML' | 'OIDC';
  params: TObject;
  body: TObject;
  schema: TSchema;
  /** The summaries' nouns: one provider, several. */
  one: string;
  many: string;
  createDescription?: string;
  present: (p: M, organizationId: string, urls: Urls) => { urls: { location: string } };
  list: (req: { organizationId: string; page: ReturnType<typeof pageRequest> }, caller: Caller) => Promise<{ items: M[]; page?: { next?: string } }>;
  /** Create and update add the protocol's settings from the body to the request made of the shared fields. */
  create: (req: { organizationId: string; label: string; defaultTeam?: string; defaultRole: Role }, body: B, caller: Caller) => Promise<M>;
  get: (params: P, caller: Caller) => Promise<M>;
  update: (req: P & { label?: string; defaultTeam?: string; defaultRole?: Role }, body: Partial<B>, caller: Caller) => Promise<M>;
  delete: (params: P, caller: Caller) => Promise<unknown>;
}

/**
 * The admin routes of one kind of provider: list, create, get, update and delete. TypeBox cannot
 * type requests from schemas that are generic here, so the handlers take the validated params and
 * body as the kind's types.
 */
function providerRoutes<B, P extends { organizationId: string }, M>(app: FastifyInstance, urls: Urls, kind: ProviderKind<B, P, M>) {
  const adminsOnly = (summary: string) => `${summary} (admins only)`;
  const { protocol } = kind;
  const path = `/orgs/:organizationId/${protocol.toLowerCase()}`;
  const itemPath = `${path}/:${protocol.toLowerCase()}ProviderId`;
  const role = (r: Static<typeof RoleOrGuest> | undefined) => (r === undefined ? undefined : roleFromApi(r));

  app.get<{ Params: { organizationId: string }; Querystring: { page?: string; limit?: number } }>(
    path,
    op({
      operationId: `list${protocol}ProvidersInOrganizationById`,
      summary: adminsOnly(`List ${kind.many}`),
      params: OrgParams,
      querystring: Type.Object(ListQuery),
      response: { 200: ListOf(kind.schema) },
    }),
    async (req) => {
      const { organizationId } = req.params;
      const res = await kind.list({ organizationId, page: pageRequest(req.query) }, req.caller);
      return pageOf(res, (p) => kind.present(p, organizationId, urls));
    },
  );

  app.post<{ Params: { organizationId: string } }>(
    path,
    op({
      operationId: `createOrganization${protocol}Provider`,
      summary: adminsOnly(`Create ${kind.one}`),
      ...(kind.createDescription === undefined ? {} : { description: kind.createDescription }),
      params: OrgParams,
      body: kind.body,
      response: { 201: kind.schema },
    }),
    async (req, reply) => {
      const { organizationId } = req.params;
      const b = req.body as ProviderBody & B;
      const provider = await kind.create({ organizationId, label: b.label, defaultTeam: b.defaultTeam, defaultRole: role(b.defaultRole) ?? Role.ROLE_UNSPECIFIED }, b, req.caller);
      const body = kind.present(provider, organizationId, urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    itemPath,
    op({ operationId: `getOrganization${protocol}ProviderById`, summary: adminsOnly(`Get ${kind.one}`), params: kind.params, response: { 200: kind.schema } }),
    async (req) => {
      const params = req.params as P;
      return kind.present(await kind.get(params, req.caller), params.organizationId, urls);
    },
  );

  app.patch(
    itemPath,
    op({
      operationId: `updateOrganization${protocol}Provider`,
      summary: adminsOnly(`Update ${kind.one}`),
      params: kind.params,
      body: Type.Partial(kind.body),
      response: { 200: kind.schema },
    }),
    async (req) => {
      const params = req.params as P;
      const b = req.body as Partial<ProviderBody & B>;
      const provider = await kind.update({ ...params, label: b.label, defaultTeam: b.defaultTeam, defaultRole: role(b.defaultRole) }, b, req.caller);
      return kind.present(provider, params.organizationId, urls);
    },
  );

  app.delete(
    itemPath,
    op({ operationId: `deleteOrganization${protocol}Provider`, summary: adminsOnly(`Delete ${kind.one}`), params: kind.params, response: { 204: NoContent } }),
    async (req, reply) => done(reply, 204, kind.delete(req.params as P, req.caller)),
  );
}

const samlBody = providerBody({
  entityID: Type.Optional(Type.String(chars(SSO.entityID))),
  certificate: Type.Optional(Type.String({ ...chars(SSO.certificate), description: 'X.509 certificate, PEM or its base64 body' })),
  ssoURL: Type.Optional(Type.String({ format: 'uri', maxLength: COMMON.url.max })),
});
const oidcBody = providerBody({
  issuer: Type.String({ format: 'uri', maxLength: COMMON.url.max }),
  clientId: Type.String(chars(SSO.clientId)),
  clientSecret: Type.String({ ...chars(SSO.clientSecret), description: 'Kept sealed; never answered' }),
});

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  // Typed by the kinds (see providerRoutes); withTypeProvider only changes the type.
  const untyped = app.withTypeProvider();

  providerRoutes(untyped, urls, {
    protocol: 'SAML',
    params: Type.Object({ organizationId: Id('Organization id'), samlProviderId: Id('SAML provider id') }),
    body: samlBody,
    schema: SamlProvider,
    one: 'a SAML provider',
    many: 'SAML providers',
    present: presentSamlProvider,
    list: orgs.listSamlProviders,
    create: (req, b: Static<typeof samlBody>, caller) => orgs.createSamlProvider({ ...req, entityId: b.entityID, certificate: b.certificate, ssoUrl: b.ssoURL }, caller),
    get: orgs.getSamlProvider,
    update: (req, b, caller) => orgs.updateSamlProvider({ ...req, entityId: b.entityID, certificate: b.certificate, ssoUrl: b.ssoURL }, caller),
    delete: orgs.deleteSamlProvider,
  });

  providerRoutes(untyped, urls, {
    protocol: 'OIDC',
    params: Type.Object({ organizationId: Id('Organization id'), oidcProviderId: Id('OIDC provider id') }),
    body: oidcBody,
    schema: OidcProvider,
    one: 'an OpenID Connect provider',
    many: 'OpenID Connect providers',
    createDescription: 'Register `service.redirectURL` of the answer as the redirect URI of the client at the provider.',
    present: presentOidcProvider,
    list: orgs.listOidcProviders,
    create: (req, b: Static<typeof oidcBody>, caller) => orgs.createOidcProvider({ ...req, issuer: b.issuer, clientId: b.clientId, clientSecret: b.clientSecret }, caller),
    get: orgs.getOidcProvider,
    update: (req, b, caller) => orgs.updateOidcProvider({ ...req, issuer: b.issuer, clientId: b.clientId, clientSecret: b.clientSecret }, caller),
    delete: orgs.deleteOidcProvider,
  });

  app.get(
    '/orgs/:organizationId/sso',
    op({
      operationId: 'listSSOProviderLoginsInOrganization',
      summary: 'The SSO providers people can sign in to the organization with',
      params: OrgParams,
      response: { 200: Type.Object({ items: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), startURL: Type.String() })) }) },
    }),
    async (req) => {
      const res = await orgs.listSsoLogins({ organizationId: req.params.organizationId }, req.caller);
      return { items: res.items.map((l) => presentSignInOption(l, urls)) };
    },
  );
};

export default routes;
