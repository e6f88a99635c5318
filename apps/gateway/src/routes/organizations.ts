import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { COMMON, ORGANIZATION } from '@quire/proto/limits';
import { roleFromApi } from '@quire/policy';
import { chars, items, OrgParams, RoleOrGuest } from '../schemas/common.ts';
import { Organization, SitePointer } from '../schemas/orgs.ts';
import { presentOrganization } from '../presenters/orgs.ts';
import type { RouteDeps } from './context.ts';
import { operations, pagedLists } from './operation.ts';

const op = operations('organizations');
const Title = Type.String(chars(ORGANIZATION.title));
const EmailDomains = Type.Array(Type.String(chars(COMMON.domain)), items(ORGANIZATION.emailDomains));

const UpdateBody = Type.Object({
  title: Type.Optional(Title),
  emailDomains: Type.Optional(EmailDomains),
  hostname: Type.Optional(Type.String(chars(ORGANIZATION.hostname))),
  defaultRole: Type.Optional(RoleOrGuest),
  defaultContent: Type.Optional(Type.Union([SitePointer, Type.Null()])),
  logo: Type.Optional(Type.Union([Type.String({ format: 'uri', maxLength: COMMON.url.max }), Type.Null()])),
  sso: Type.Optional(Type.Boolean()),
  ai: Type.Optional(Type.Boolean()),
  inviteLinks: Type.Optional(Type.Boolean()),
});

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { orgs }, urls }) => {
  const list = pagedLists(app, op);
  list(
    '/orgs',
    { operationId: 'listOrganizationsForAuthenticatedUser', summary: 'List the organizations the caller belongs to', item: Organization },
    (_, page, caller) => orgs.listOrganizations({ page }, caller),
    (o) => presentOrganization(o, urls),
  );

  app.post(
    '/orgs',
    op({
      operationId: 'createOrganization',
      summary: 'Create an organization; the caller becomes its admin',
      body: Type.Object({ title: Title, emailDomains: Type.Optional(EmailDomains) }),
      response: { 201: Organization },
    }),
    async (req, reply) => {
      const org = await orgs.createOrganization({ title: req.body.title, emailDomains: req.body.emailDomains ?? [] }, req.caller);
      const body = presentOrganization(org, urls);
      return reply.code(201).header('location', body.urls.location).send(body);
    },
  );

  app.get('/orgs/:organizationId', op({ operationId: 'getOrganizationById', summary: 'Get an organization', params: OrgParams, response: { 200: Organization } }), async (req) =>
    presentOrganization(await orgs.getOrganization({ organizationId: req.params.organizationId }, req.caller), urls),
  );

  app.patch(
    '/orgs/:organizationId',
    op({ operationId: 'updateOrganizationById', summary: 'Update an organization (admins only)', params: OrgParams, body: UpdateBody, response: { 200: Organization } }),
    async (req) => {
      const b = req.body;
      const org = await orgs.updateOrganization(
        {
          organizationId: req.params.organizationId,
          title: b.title,
          setEmailDomains: b.emailDomains !== undefined,
          emailDomains: b.emailDomains ?? [],
          hostname: b.hostname,
          defaultRole: b.defaultRole === undefined ? undefined : roleFromApi(b.defaultRole),
          defaultContentSite: b.defaultContent?.site,
          clearDefaultContent: b.defaultContent === null,
          logo: b.logo ?? undefined,
          clearLogo: b.logo === null,
          sso: b.sso,
          ai: b.ai,
          inviteLinks: b.inviteLinks,
        },
        req.caller,
      );
      return presentOrganization(org, urls);
    },
  );

  app.get(
    '/subdomains/:subdomain',
    op({
      operationId: 'getSubdomain',
      summary: 'The organization a subdomain points to',
      params: Type.Object({ subdomain: Type.String({ ...chars(ORGANIZATION.hostname), pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$' }) }),
      response: {
        200: Type.Object({
          object: Type.Literal('subdomain'),
          subdomain: Type.String(),
          target: Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
          isActive: Type.Boolean(),
        }),
      },
    }),
    async (req) => {
      const s = await orgs.getSubdomain({ subdomain: req.params.subdomain }, req.caller);
      return { object: 'subdomain' as const, subdomain: s.subdomain, target: { type: 'organization' as const, organization: s.organizationId }, isActive: true };
    },
  );

  app.get(
    '/email-domains/:emailDomain/orgs',
    op({
      operationId: 'getOrganizationsForEmailDomain',
      summary: 'Organizations that people of an email domain can join',
      params: Type.Object({ emailDomain: Type.String(chars(COMMON.domain)) }),
      response: { 200: Type.Object({ organizations: Type.Array(Organization) }) },
    }),
    async (req) => {
      const res = await orgs.listOrganizationsForEmailDomain({ emailDomain: req.params.emailDomain }, req.caller);
      return { organizations: res.organizations.map((o) => presentOrganization(o, urls)) };
    },
  );
};

export default routes;
