import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Role, roleFromApi } from '@quire/service-kit';
import { errorResponses, Id, list, ListOf, ListQuery, NoContent, OrgParams, pageRequest, RoleOrGuest } from '../schemas/common.ts';
import { OidcProvider, SamlProvider } from '../schemas/orgs.ts';
import { presentOidcProvider, presentSamlProvider, presentSignInOption } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';

const tags = ['sso'];
const ProviderParams = Type.Object({ organizationId: Id('Organization id'), samlProviderId: Id('SAML provider id') });
const fields = {
  label: Type.String({ minLength: 1, maxLength: 30 }),
  entityID: Type.Optional(Type.String({ minLength: 1, maxLength: 1024 })),
  certificate: Type.Optional(Type.String({ minLength: 1, maxLength: 10_000, description: 'X.509 certificate, PEM or its base64 body' })),
  ssoURL: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
  defaultTeam: Type.Optional(Id('Team id')),
  defaultRole: Type.Optional(RoleOrGuest),
};

const OidcParams = Type.Object({ organizationId: Id('Organization id'), oidcProviderId: Id('OIDC provider id') });
const oidcFields = {
  label: Type.String({ minLength: 1, maxLength: 30 }),
  issuer: Type.String({ format: 'uri', maxLength: 2048 }),
  clientId: Type.String({ minLength: 1, maxLength: 255 }),
  clientSecret: Type.String({ minLength: 1, maxLength: 1024, description: 'Kept sealed; never answered' }),
  defaultTeam: Type.Optional(Id('Team id')),
  defaultRole: Type.Optional(RoleOrGuest),
};

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  app.get(
    '/orgs/:organizationId/saml',
    {
      schema: {
        operationId: 'listSAMLProvidersInOrganizationById',
        tags,
        summary: 'List SAML providers (admins only)',
        params: OrgParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListOf(SamlProvider), ...errorResponses },
      },
    },
    async (req) => {
      const { organizationId } = req.params;
      const res = await orgs.listSamlProviders({ organizationId, page: pageRequest(req.query) }, req.caller);
      return list(
        res.items.map((p) => presentSamlProvider(p, organizationId, urls)),
        res.page?.next,
      );
    },
  );

  app.post(
    '/orgs/:organizationId/saml',
    {
      schema: {
        operationId: 'createOrganizationSAMLProvider',
        tags,
        summary: 'Create a SAML provider (admins only)',
        params: OrgParams,
        body: Type.Object(fields),
        response: { 201: SamlProvider, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { organizationId } = req.params;
      const b = req.body;
      const provider = await orgs.createSamlProvider(
        {
          organizationId,
          label: b.label,
          entityId: b.entityID,
          certificate: b.certificate,
          ssoUrl: b.ssoURL,
          defaultTeam: b.defaultTeam,
          defaultRole: b.defaultRole === undefined ? Role.ROLE_UNSPECIFIED : roleFromApi(b.defaultRole),
        },
        req.caller,
      );
      const body = presentSamlProvider(provider, organizationId, urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'getOrganizationSAMLProviderById',
        tags,
        summary: 'Get a SAML provider (admins only)',
        params: ProviderParams,
        response: { 200: SamlProvider, ...errorResponses },
      },
    },
    async (req) => presentSamlProvider(await orgs.getSamlProvider(req.params, req.caller), req.params.organizationId, urls),
  );

  app.patch(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'updateOrganizationSAMLProvider',
        tags,
        summary: 'Update a SAML provider (admins only)',
        params: ProviderParams,
        body: Type.Partial(Type.Object(fields)),
        response: { 200: SamlProvider, ...errorResponses },
      },
    },
    async (req) => {
      const b = req.body;
      const provider = await orgs.updateSamlProvider(
        {
          ...req.params,
          label: b.label,
          entityId: b.entityID,
          certificate: b.certificate,
          ssoUrl: b.ssoURL,
          defaultTeam: b.defaultTeam,
          defaultRole: b.defaultRole === undefined ? undefined : roleFromApi(b.defaultRole),
        },
        req.caller,
      );
      return presentSamlProvider(provider, req.params.organizationId, urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/saml/:samlProviderId',
    {
      schema: {
        operationId: 'deleteOrganizationSAMLProvider',
        tags,
        summary: 'Delete a SAML provider (admins only)',
        params: ProviderParams,
        response: { 204: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await orgs.deleteSamlProvider(req.params, req.caller);
      return reply.code(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/oidc',
    {
      schema: {
        operationId: 'listOIDCProvidersInOrganizationById',
        tags,
        summary: 'List OpenID Connect providers (admins only)',
        params: OrgParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListOf(OidcProvider), ...errorResponses },
      },
    },
    async (req) => {
      const { organizationId } = req.params;
      const res = await orgs.listOidcProviders({ organizationId, page: pageRequest(req.query) }, req.caller);
      return list(
        res.items.map((p) => presentOidcProvider(p, organizationId, urls)),
        res.page?.next,
      );
    },
  );

  app.post(
    '/orgs/:organizationId/oidc',
    {
      schema: {
        operationId: 'createOrganizationOIDCProvider',
        tags,
        summary: 'Create an OpenID Connect provider (admins only)',
        description: 'Register `service.redirectURL` of the answer as the redirect URI of the client at the provider.',
        params: OrgParams,
        body: Type.Object(oidcFields),
        response: { 201: OidcProvider, ...errorResponses },
      },
    },
    async (req, reply) => {
      const { organizationId } = req.params;
      const b = req.body;
      const provider = await orgs.createOidcProvider(
        {
          organizationId,
          label: b.label,
          issuer: b.issuer,
          clientId: b.clientId,
          clientSecret: b.clientSecret,
          defaultTeam: b.defaultTeam,
          defaultRole: b.defaultRole === undefined ? Role.ROLE_UNSPECIFIED : roleFromApi(b.defaultRole),
        },
        req.caller,
      );
      const body = presentOidcProvider(provider, organizationId, urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      schema: {
        operationId: 'getOrganizationOIDCProviderById',
        tags,
        summary: 'Get an OpenID Connect provider (admins only)',
        params: OidcParams,
        response: { 200: OidcProvider, ...errorResponses },
      },
    },
    async (req) => presentOidcProvider(await orgs.getOidcProvider(req.params, req.caller), req.params.organizationId, urls),
  );

  app.patch(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      schema: {
        operationId: 'updateOrganizationOIDCProvider',
        tags,
        summary: 'Update an OpenID Connect provider (admins only)',
        params: OidcParams,
        body: Type.Partial(Type.Object(oidcFields)),
        response: { 200: OidcProvider, ...errorResponses },
      },
    },
    async (req) => {
      const b = req.body;
      const provider = await orgs.updateOidcProvider(
        {
          ...req.params,
          label: b.label,
          issuer: b.issuer,
          clientId: b.clientId,
          clientSecret: b.clientSecret,
          defaultTeam: b.defaultTeam,
          defaultRole: b.defaultRole === undefined ? undefined : roleFromApi(b.defaultRole),
        },
        req.caller,
      );
      return presentOidcProvider(provider, req.params.organizationId, urls);
    },
  );

  app.delete(
    '/orgs/:organizationId/oidc/:oidcProviderId',
    {
      schema: {
        operationId: 'deleteOrganizationOIDCProvider',
        tags,
        summary: 'Delete an OpenID Connect provider (admins only)',
        params: OidcParams,
        response: { 204: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await orgs.deleteOidcProvider(req.params, req.caller);
      return reply.code(204).send();
    },
  );

  app.get(
    '/orgs/:organizationId/sso',
    {
      schema: {
        operationId: 'listSSOProviderLoginsInOrganization',
        tags,
        summary: 'The SSO providers people can sign in to the organization with',
        params: OrgParams,
        response: { 200: Type.Object({ items: Type.Array(Type.Object({ id: Type.String(), label: Type.String(), startURL: Type.String() })) }), ...errorResponses },
      },
    },
    async (req) => {
      const res = await orgs.listSsoLogins({ organizationId: req.params.organizationId }, req.caller);
      return { items: res.items.map((l) => presentSignInOption(l, urls)) };
    },
  );
};

export default routes;
