import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as LIMITS from '@quire/proto/limits';
import type { Bound } from '@quire/proto/limits';
import { testIdentity, testSuffix } from '@quire/service-kit/testing';
import { buildApp } from './app.ts';
import { connectServices } from './clients.ts';
import { loadGatewayConfig } from './config.ts';
import { CHANGE_SCHEMAS } from './schemas/change-requests.ts';

// Every bound of @quire/proto/limits is where the gateway says it is: in /v1/openapi.json at the
// places named below (`operationId in.path`, `[]` an array's items, `*` a record's values), or, for
// the changes of a change request (checked one at a time, outside the document), in their schemas
// (`change:<operation> path`). `max` after a place: only the bound's maximum is stated there. The
// services' side of each bound is checked by their own tests of the same module (limits.test.ts).
const PLACES: Record<string, string[]> = {
  'COMMON.id': ['updateOrganizationById path.organizationId', 'postCommentInChangeRequest body.node', 'downloadSpaceExport query.user max'],
  'COMMON.url': [
    'importGitRepository body.url',
    'createOpenAPISpec body.source.url max',
    'getSiteAccess query.location',
    'updateOrganizationById body.logo max',
    'trackEventsInSiteById body.events[].location.url max',
  ],
  'COMMON.email': ['signIn body.email'],
  'COMMON.emailAddress': ['listSignInProviders query.email', 'inviteUsersToOrganization body.emails[]', 'inviteUsersToOrganization body.emails[].email'],
  'COMMON.domain': ['createOrganization body.emailDomains[]', 'getOrganizationsForEmailDomain path.emailDomain'],
  'COMMON.emoji': ['createSpace body.emoji', 'updateSiteCustomizationById body.favicon.emoji', 'change:insert_page emoji'],
  'COMMON.icon': ['updateSiteSectionById body.icon', 'change:update_page icon'],
  'COMMON.pageLimit': ['listMembersInOrganizationById query.limit', 'listSites query.limit'],
  'COMMON.cursor': ['listMembersInOrganizationById query.page', 'searchSpaceContent query.page'],
  'COMMON.batchIds': [],
  'OPENAPI_SPEC.slug': ['createOpenAPISpec body.slug', 'getOpenAPISpecBySlug path.specSlug'],
  'OPENAPI_SPEC.document': ['createOpenAPISpec body.source.text', 'createOrUpdateOpenAPISpecBySlug body.source.text'],
  'COMMON.signature': ['downloadSpaceExport query.sig'],
  'AUTH.password': ['changePassword body.newPassword', 'signIn body.password max'],
  'AUTH.tokenLabel': ['createUserApiToken body.label'],
  'AUTH.siteId': ['getSiteAccess query.organization', 'getSiteAccess query.site'],
  'AUTH.relayState': ['samlAssertionConsumerService body.RelayState'],
  'AUTH.samlResponse': ['samlAssertionConsumerService body.SAMLResponse'],
  'ORGANIZATION.title': ['createOrganization body.title', 'updateOrganizationById body.title'],
  'ORGANIZATION.hostname': ['updateOrganizationById body.hostname'],
  'ORGANIZATION.emailDomains': ['createOrganization body.emailDomains'],
  'ORGANIZATION.defaultContentSite': ['updateOrganizationById body.defaultContent.site'],
  'MEMBER.displayName': [],
  'MEMBER.search': ['listMembersInOrganizationById query.search'],
  'MEMBER.invitees': ['inviteUsersToOrganization body.emails'],
  'TEAM.title': ['createOrganizationTeam body.title', 'listTeamsInOrganizationById query.title max'],
  'TEAM.members': ['createOrganizationTeam body.members'],
  'SSO.label': ['createOrganizationSAMLProvider body.label', 'createOrganizationOIDCProvider body.label'],
  'SSO.entityID': ['createOrganizationSAMLProvider body.entityID'],
  'SSO.certificate': ['createOrganizationSAMLProvider body.certificate'],
  'SSO.clientId': ['createOrganizationOIDCProvider body.clientId'],
  'SSO.clientSecret': ['createOrganizationOIDCProvider body.clientSecret'],
  'TRANSLATION.title': ['createTranslation body.title'],
  'TRANSLATION.languages': ['createTranslation body.languages'],
  'TRANSLATION.language': ['createTranslation body.languages[]'],
  'AUDIT.actor': ['listOrganizationAuditLog query.actor'],
  'AUDIT.action': ['listOrganizationAuditLog query.action'],
  'SPACE.title': ['createSpace body.title', 'updateSpaceById body.title'],
  'SPACE.description': ['updateCollectionById body.description'],
  'SPACE.principals': ['inviteToSpace body.users', 'inviteToSpace body.teams'],
  'SPACE.searchQuery': ['searchSpaceContent query.query'],
  'SPACE.changesLimit': ['getRevisionSemanticChanges query.limit'],
  'PAGE.title': ['change:insert_page title', 'change:update_page title'],
  'PAGE.slug': ['change:insert_page slug'],
  'PAGE.description': ['change:insert_page description'],
  'PAGE.markdown': ['change:insert_page document.markdown'],
  'PAGE.path': ['getPageInRevisionByPath path.*'],
  'PAGE.ref': ['change:insert_page ref', 'change:insert_files files[].ref'],
  'PAGE.nodes': ['change:insert_page document.nodes'],
  'FILE.name': ['change:insert_files files[].name'],
  'FILE.contentType': ['change:insert_files files[].contentType'],
  'FILE.base64': ['change:insert_files files[].base64'],
  'FILE.perInsert': ['change:insert_files files'],
  'CHANGE_REQUEST.subject': ['createChangeRequest body.subject', 'requestReviewersForChangeRequest body.subject'],
  'CHANGE_REQUEST.agentTaskId': ['createChangeRequest body.agentTaskId'],
  'CHANGE_REQUEST.changes': ['updateChangeRequestContent body.changes'],
  'CHANGE_REQUEST.reviewers': ['requestReviewersForChangeRequest body.users'],
  'COMMENT.markdown': ['postCommentInChangeRequest body.body.markdown'],
  'COMMENT.authors': ['listCommentsInChangeRequest query.authors'],
  'COMMENT.reactions': ['updateCommentInChangeRequest body.addedReactions'],
  'COMMENT.reaction': ['updateCommentInChangeRequest body.addedReactions[]'],
  'SITE.title': ['createSite body.title', 'updateSiteById body.title'],
  'SITE.sectionTitle': ['updateSiteSectionById body.title', 'addSectionToSite body.title'],
  'SITE.groupTitle': ['addSectionGroupToSite body.title', 'updateSiteSectionGroupById body.title'],
  'SITE.groupSections': ['addSectionGroupToSite body.sections'],
  'SITE.basename': ['updateSiteById body.basename'],
  'SITE.path': ['updateSiteSpaceById body.path', 'updateSiteSectionById body.path'],
  'SITE.description': ['updateSiteSectionById body.description'],
  'SITE.condition': ['updateSiteSpaceById body.condition', 'updateSiteCustomizationById body.header.links[].condition'],
  'SITE.shareLinkName': ['createSiteShareLink body.name'],
  'SITE.shareKey': ['getPublishedContentSite query.shareKey'],
  'SITE.hostname': ['updateSiteById body.hostname'],
  'SITE.proxy': ['updateSiteById body.proxy'],
  'SITE.titleFilter': ['listSites query.title'],
  'SITE.spaces': ['createSite body.spaces'],
  'CUSTOMIZATION.title': ['updateSiteCustomizationById body.title'],
  'CUSTOMIZATION.linkTitle': ['updateSiteCustomizationById body.header.links[].title', 'updateSiteCustomizationById body.footer.groups[].title'],
  'CUSTOMIZATION.links': ['updateSiteCustomizationById body.header.links[].links', 'updateSiteCustomizationById body.footer.groups[].links'],
  'CUSTOMIZATION.headerLinks': ['updateSiteCustomizationById body.header.links'],
  'CUSTOMIZATION.footerGroups': ['updateSiteCustomizationById body.footer.groups'],
  'CUSTOMIZATION.copyright': ['updateSiteCustomizationById body.footer.copyright'],
  'CUSTOMIZATION.announcement': ['updateSiteCustomizationById body.announcement.message'],
  'CUSTOMIZATION.fontFamily': ['updateSiteCustomizationById body.styling.font.fontFamily'],
  'CUSTOMIZATION.fontFaces': ['updateSiteCustomizationById body.styling.font.fontFaces'],
  'CUSTOMIZATION.fontSources': ['updateSiteCustomizationById body.styling.font.fontFaces[].sources'],
  'CUSTOMIZATION.fontWeight': ['updateSiteCustomizationById body.styling.font.fontFaces[].weight'],
  'INTEGRATION.name': ['publishIntegration path.integrationName', 'listIntegrations query.blockDomain'],
  'INTEGRATION.title': ['publishIntegration body.title'],
  'INTEGRATION.description': ['publishIntegration body.description'],
  'INTEGRATION.summary': ['publishIntegration body.summary'],
  'INTEGRATION.previewImages': ['publishIntegration body.previewImages'],
  'INTEGRATION.externalLinks': ['publishIntegration body.externalLinks'],
  'INTEGRATION.externalLinkLabel': ['publishIntegration body.externalLinks[].label'],
  'INTEGRATION.contentSecurityPolicy': ['publishIntegration body.contentSecurityPolicy', 'publishIntegration body.contentSecurityPolicy.*'],
  'INTEGRATION.key': ['publishIntegration body.blocks[].id', 'publishIntegration body.contentSources[].configuration.componentId'],
  'INTEGRATION.blockTitle': ['publishIntegration body.blocks[].title', 'publishIntegration body.contentSources[].title'],
  'INTEGRATION.blockDescription': ['publishIntegration body.blocks[].description'],
  'INTEGRATION.blockIcon': ['publishIntegration body.blocks[].icon', 'publishIntegration body.contentSources[].icon'],
  'INTEGRATION.secrets': ['publishIntegration body.secrets'],
  'INTEGRATION.secretValue': ['publishIntegration body.secrets.*'],
  'INTEGRATION.organization': ['publishIntegration body.organization'],
  'INTEGRATION.search': ['listIntegrations query.search'],
  'GIT_SYNC.ref': ['importGitRepository body.ref', 'exportToGitRepository body.ref'],
  'GIT_SYNC.repoCacheID': ['importGitRepository body.repoCacheID'],
  'GIT_SYNC.repoProjectDirectory': ['importGitRepository body.repoProjectDirectory'],
  'GIT_SYNC.commitMessage': ['exportToGitRepository body.commitMessage'],
  'GIT_SYNC.webhookBody': [],
  'GIT_SYNC.webhookHeader': [],
  'GIT_SYNC.ancestryDepth': [],
  'GIT_SYNC.pollSeconds': ['setSpaceGitWebhook body.pollSeconds'],
  'COLLAB.editors': [],
  'COLLAB.stateBytes': [],
  'OPENAPI_CONSOLE.specBytes': [],
  'OPENAPI_CONSOLE.requestBytes': [],
  'OPENAPI_CONSOLE.responseBytes': [],
  'OPENAPI_CONSOLE.headers': [],
  'OPENAPI_CONSOLE.timeoutMs': [],
  'INSIGHTS.events': ['trackEventsInSiteById body.events'],
  'INSIGHTS.visitorId': ['trackEventsInSiteById body.events[].session.visitorId', 'trackEventsInSiteById body.events[].session.sessionId'],
  'INSIGHTS.ip': ['trackEventsInSiteById body.events[].session.ip'],
  'INSIGHTS.userAgent': ['trackEventsInSiteById body.events[].session.userAgent'],
  'INSIGHTS.language': ['trackEventsInSiteById body.events[].session.language'],
  'INSIGHTS.eventType': ['trackEventsInSiteById body.events[].type'],
  'INSIGHTS.tool': ['trackEventsInSiteById body.events[].tool'],
  'INSIGHTS.columns': ['aggregateSiteEvents body.select'],
  'INSIGHTS.filters': ['aggregateSiteEvents body.where'],
  'INSIGHTS.groupBy': ['aggregateSiteEvents body.groupBy'],
  'INSIGHTS.column': ['aggregateSiteEvents body.select[].column', 'aggregateSiteEvents body.where[].column'],
  'INSIGHTS.interval': ['aggregateSiteEvents body.select[].interval'],
  'INSIGHTS.claim': ['aggregateSiteEvents body.select[].claim'],
  'INSIGHTS.precision': ['aggregateSiteEvents body.select[].precision'],
  'INSIGHTS.operator': ['aggregateSiteEvents body.where[].operator'],
  'INSIGHTS.range': ['aggregateSiteEvents body.range'],
  'INSIGHTS.values': ['aggregateSiteEvents body.where[].values'],
  'INSIGHTS.limit': ['aggregateSiteEvents body.limit'],
};

interface Schema {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  [keyword: string]: unknown;
}

/** The schemas at `path` below `schema`, through every alternative of a union. */
function resolve(schema: Schema, path: string[]): Schema[] {
  const alternatives = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])];
  const here = alternatives.flatMap((alt) => resolve(alt, path));
  if (path.length === 0) return alternatives.length ? [schema, ...here] : [schema];
  const [step, ...rest] = path;
  const next =
    step === '[]' ? schema.items : step === '*' ? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined) : schema.properties?.[step!];
  return [...here, ...(next ? resolve(next, rest) : [])];
}

const steps = (path: string) => path.split(/\.|(?=\[\])|(?<=\[\])/).filter((s) => s !== '' && s !== '.');

/** What each kind of schema calls its two bounds. */
function keywords(schema: Schema): [string, string] | undefined {
  if (schema.type === 'string') return ['minLength', 'maxLength'];
  if (schema.type === 'array') return ['minItems', 'maxItems'];
  if (schema.type === 'integer' || schema.type === 'number') return ['minimum', 'maximum'];
  if (schema.type === 'object' && 'maxProperties' in schema) return ['minProperties', 'maxProperties'];
  return undefined;
}

/** The bounds a place states, in the module's terms. */
function statedAt(doc: { paths: Record<string, Record<string, Schema>> }, place: string): Bound[] {
  const [where, path] = place.split(' ') as [string, string];
  let roots: Schema[];
  if (where.startsWith('change:')) {
    roots = [CHANGE_SCHEMAS[where.slice('change:'.length) as keyof typeof CHANGE_SCHEMAS] as unknown as Schema];
  } else {
    const op = Object.values(doc.paths)
      .flatMap((item) => Object.values(item))
      .find((o) => o.operationId === where);
    if (!op) throw new Error(`no operation ${where}`);
    const [first, ...rest] = steps(path);
    if (first === 'body') {
      const content = (op.requestBody as { content: Record<string, { schema: Schema }> }).content;
      roots = Object.values(content).flatMap((c) => resolve(c.schema, rest));
      return bounds(roots);
    }
    const param = (op.parameters as { in: string; name: string; schema: Schema }[]).find((p) => p.in === first && p.name === rest[0]);
    roots = param ? resolve(param.schema, rest.slice(1)) : [];
    return bounds(roots);
  }
  return bounds(roots.flatMap((r) => resolve(r, steps(path))));
}

function bounds(schemas: Schema[]): Bound[] {
  return schemas.flatMap((s) => {
    const names = keywords(s);
    if (!names || !(names[1] in s)) return [];
    const [min, max] = names;
    return [{ ...(min in s ? { min: s[min] as number } : {}), max: s[max] as number }];
  });
}

/** Every bound of the module, by its `GROUP.name`. */
const declared = Object.entries(LIMITS).flatMap(([group, bounds]) =>
  typeof bounds === 'object' ? Object.entries(bounds as Record<string, Bound>).map(([name, bound]) => [`${group}.${name}`, bound] as const) : [],
);

describe('the bounds of @quire/proto/limits in the gateway', () => {
  let doc: { paths: Record<string, Record<string, Schema>> };
  let close: () => Promise<void>;

  beforeAll(async () => {
    const config = loadGatewayConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_BUCKET: `limits_${testSuffix()}` });
    const services = connectServices(config, testIdentity('gateway'));
    const app = await buildApp(config, services);
    doc = (await app.inject({ method: 'GET', url: '/v1/openapi.json' })).json();
    close = async () => {
      await app.limiter.drop();
      await app.close();
      for (const c of services.channels) c.client.close();
    };
  });
  afterAll(() => close?.());

  it('names a place for every bound but those only the services check', () => {
    expect(Object.keys(PLACES).sort()).toEqual(declared.map(([name]) => name).sort());
    const unplaced = Object.entries(PLACES).filter(([, places]) => places.length === 0);
    // Ids per internal call and names made from an email's local part never come from a request body;
    // a push webhook's raw body (the route's body limit) and headers are checked by git-sync, which
    // also bounds how deep it looks into a repository's history; the collaboration server bounds a
    // page's editors and state, and the reader its API reference's specs (space files, URLs) and Test it requests.
    expect(unplaced.map(([name]) => name).sort()).toEqual(
      [
        'COMMON.batchIds',
        'MEMBER.displayName',
        'GIT_SYNC.webhookBody',
        'GIT_SYNC.webhookHeader',
        'GIT_SYNC.ancestryDepth',
        'COLLAB.editors',
        'COLLAB.stateBytes',
        'OPENAPI_CONSOLE.specBytes',
        'OPENAPI_CONSOLE.requestBytes',
        'OPENAPI_CONSOLE.responseBytes',
        'OPENAPI_CONSOLE.headers',
        'OPENAPI_CONSOLE.timeoutMs',
      ].sort(),
    );
  });

  it.each(declared.filter(([name]) => PLACES[name]!.length > 0))('%s is stated where the reference says', (name, bound) => {
    for (const place of PLACES[name]!) {
      const [where, path, only] = place.split(' ');
      const stated = statedAt(doc, `${where} ${path}`);
      expect(stated, place).not.toHaveLength(0);
      for (const s of stated) {
        if (only === 'max') expect(s.max, place).toBe(bound.max);
        else expect(s, place).toEqual(bound.min === undefined ? { max: bound.max } : { min: bound.min, max: bound.max });
      }
    }
  });
});
