import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ItemPointer } from '@quire/proto/sites';
import { errorResponses, list, ListOf, ListQuery, NoContent, pageRequest } from '../schemas/common.ts';
import {
  AddSectionToGroupBody,
  AddSiteSpaceBody,
  CreateGroupBody,
  CreateSectionBody,
  GroupParams,
  GroupSectionParams,
  ListSectionsQuery,
  ListSiteSpacesQuery,
  MoveGroupBody,
  MoveSectionBody,
  MoveSiteSpaceBody,
  SectionParams,
  ShareKeyQuery,
  SiteParams,
  SiteSection,
  SiteSectionGroup,
  SiteSpace,
  SiteSpaceParams,
  SiteStructure,
  SiteStructureItem,
  SortStructureBody,
  UpdateGroupBody,
  UpdateSectionBody,
  UpdateSiteSpaceBody,
} from '../schemas/sites.ts';
import { sitePresenters } from '../presenters/sites.ts';
import type { RouteDeps } from './context.ts';
import { siteRef } from './sites.ts';

// Site-spaces, sections, section groups and the site structure (read and sort; the deprecated
// move operations are the sort of one kind of item).

const base = '/orgs/:organizationId/sites/:siteId';

/** `null` removes a field (`set` without a value), absent leaves it. */
const settable = <T>(v: T | null | undefined) => ({ set: v !== undefined, value: v ?? undefined });

/** A move position as the sites service takes it: an anchor before or after. */
function anchors<P>(position: { before?: P; after?: P } | undefined, pointer: (p: P) => ItemPointer) {
  return { before: position?.before && pointer(position.before), after: position?.after && pointer(position.after) };
}

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services, urls }) => {
  const { sites } = services;
  const present = (req: { caller: Parameters<typeof sites.getSite>[1]; params: { organizationId: string } }, items: Parameters<typeof sitePresenters>[4]) =>
    sitePresenters(services, req.caller, urls, req.params.organizationId, items);

  // Site-spaces

  app.get(
    `${base}/site-spaces`,
    {
      schema: {
        operationId: 'listSiteSpaces',
        tags: ['site-spaces'],
        summary: 'List the site-spaces of a site; `default` true gives only the default ones, false only the others',
        params: SiteParams,
        querystring: ListSiteSpacesQuery,
        response: { 200: ListOf(SiteSpace), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      const res = await sites.listSiteSpaces({ site: siteRef(req.params), page: pageRequest(q), default: q.default, shareKey: q.shareKey }, req.caller);
      const p = await present(
        req,
        res.items.map((siteSpace) => ({ siteSpace })),
      );
      return list(res.items.map(p.siteSpace), res.page?.next);
    },
  );

  app.post(
    `${base}/site-spaces`,
    {
      schema: {
        operationId: 'addSpaceToSite',
        tags: ['site-spaces'],
        summary: 'Add a space to a site: to `sectionId`, else the default section, else the root of a site without sections',
        params: SiteParams,
        body: AddSiteSpaceBody,
        response: { 201: SiteSpace, ...errorResponses },
      },
    },
    async (req, reply) => {
      const siteSpace = await sites.addSiteSpace({ site: siteRef(req.params), spaceId: req.body.spaceId, sectionId: req.body.sectionId }, req.caller);
      return reply.code(201).send((await present(req, [{ siteSpace }])).siteSpace(siteSpace));
    },
  );

  app.patch(
    `${base}/site-spaces/:siteSpaceId`,
    {
      schema: {
        operationId: 'updateSiteSpaceById',
        tags: ['site-spaces'],
        summary: 'Update a site-space: path, condition (null removes it), space',
        params: SiteSpaceParams,
        body: UpdateSiteSpaceBody,
        response: { 200: SiteSpace, ...errorResponses },
      },
    },
    async (req) => {
      const condition = settable(req.body.condition);
      const siteSpace = await sites.updateSiteSpace(
        { site: siteRef(req.params), siteSpaceId: req.params.siteSpaceId, path: req.body.path, setCondition: condition.set, condition: condition.value, spaceId: req.body.spaceId },
        req.caller,
      );
      return (await present(req, [{ siteSpace }])).siteSpace(siteSpace);
    },
  );

  app.delete(
    `${base}/site-spaces/:siteSpaceId`,
    {
      schema: {
        operationId: 'deleteSiteSpaceById',
        tags: ['site-spaces'],
        summary: 'Remove a space from a site',
        params: SiteSpaceParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await sites.deleteSiteSpace({ site: siteRef(req.params), siteSpaceId: req.params.siteSpaceId }, req.caller);
      return reply.code(205).send();
    },
  );

  app.post(
    `${base}/site-spaces/:siteSpaceId/move`,
    {
      schema: {
        operationId: 'moveSiteSpace',
        tags: ['site-spaces'],
        summary: 'Move a site-space beside another (deprecated: use the site structure sort)',
        params: SiteSpaceParams,
        body: MoveSiteSpaceBody,
        response: { 200: SiteSpace, ...errorResponses },
      },
    },
    async (req) => {
      const at = anchors(req.body.position, (p) => ({ type: p.type, id: p.siteSpace }));
      const { siteSpace } = await sites.moveSiteItem({ site: siteRef(req.params), item: { type: 'site-space', id: req.params.siteSpaceId }, ...at }, req.caller);
      return (await present(req, [{ siteSpace }])).siteSpace(siteSpace!);
    },
  );

  // Sections

  app.get(
    `${base}/sections`,
    {
      schema: {
        operationId: 'listSiteSections',
        tags: ['site-sections'],
        summary: 'List the sections of a site',
        params: SiteParams,
        querystring: ListSectionsQuery,
        response: { 200: ListOf(SiteSection), ...errorResponses },
      },
    },
    async (req) => {
      const res = await sites.listSections({ site: siteRef(req.params), page: pageRequest(req.query), shareKey: req.query.shareKey }, req.caller);
      const p = await present(
        req,
        res.items.map((section) => ({ section })),
      );
      return list(res.items.map(p.section), res.page?.next);
    },
  );

  app.post(
    `${base}/sections`,
    {
      schema: {
        operationId: 'addSectionToSite',
        tags: ['site-sections'],
        summary: "Add a section holding a space; a site's first section is its default, and takes the site-spaces it had at its root along",
        params: SiteParams,
        body: CreateSectionBody,
        response: { 201: SiteSection, ...errorResponses },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const section = await sites.createSection({ site: siteRef(req.params), spaceId: b.spaceId, title: b.title ?? undefined, icon: b.icon ?? undefined }, req.caller);
      return reply.code(201).send((await present(req, [{ section }])).section(section));
    },
  );

  app.patch(
    `${base}/sections/:siteSectionId`,
    {
      schema: {
        operationId: 'updateSiteSectionById',
        tags: ['site-sections'],
        summary: 'Update a section; condition, icon and description null remove them',
        params: SectionParams,
        body: UpdateSectionBody,
        response: { 200: SiteSection, ...errorResponses },
      },
    },
    async (req) => {
      const b = req.body;
      const [condition, icon, description] = [settable(b.condition), settable(b.icon), settable(b.description)];
      const section = await sites.updateSection(
        {
          site: siteRef(req.params),
          sectionId: req.params.siteSectionId,
          title: b.title,
          path: b.path,
          defaultSiteSpaceId: b.defaultSiteSpace,
          setCondition: condition.set,
          condition: condition.value,
          setIcon: icon.set,
          icon: icon.value,
          setDescription: description.set,
          description: description.value,
        },
        req.caller,
      );
      return (await present(req, [{ section }])).section(section);
    },
  );

  app.delete(
    `${base}/sections/:siteSectionId`,
    {
      schema: {
        operationId: 'deleteSiteSectionById',
        tags: ['site-sections'],
        summary: 'Delete a section with its site-spaces',
        params: SectionParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await sites.deleteSection({ site: siteRef(req.params), sectionId: req.params.siteSectionId }, req.caller);
      return reply.code(205).send();
    },
  );

  app.post(
    `${base}/sections/:siteSectionId/move`,
    {
      schema: {
        operationId: 'moveSiteSection',
        tags: ['site-sections'],
        summary: 'Move a section beside another (deprecated: use the site structure sort)',
        params: SectionParams,
        body: MoveSectionBody,
        response: { 200: SiteSection, ...errorResponses },
      },
    },
    async (req) => {
      const at = anchors(req.body.position, (p) => ({ type: p.type, id: p.siteSection }));
      const { section } = await sites.moveSiteItem({ site: siteRef(req.params), item: { type: 'site-section', id: req.params.siteSectionId }, ...at }, req.caller);
      return (await present(req, [{ section }])).section(section!);
    },
  );

  // Section groups

  app.get(
    `${base}/section-groups`,
    {
      schema: {
        operationId: 'listSiteSectionGroups',
        tags: ['site-section-groups'],
        summary: 'List the section groups of a site',
        params: SiteParams,
        querystring: Type.Object(ListQuery),
        response: { 200: ListOf(SiteSectionGroup), ...errorResponses },
      },
    },
    async (req) => {
      const res = await sites.listSectionGroups({ site: siteRef(req.params), page: pageRequest(req.query) }, req.caller);
      const p = await present(
        req,
        res.items.map((group) => ({ group })),
      );
      return list(res.items.map(p.group), res.page?.next);
    },
  );

  app.post(
    `${base}/section-groups`,
    {
      schema: {
        operationId: 'addSectionGroupToSite',
        tags: ['site-section-groups'],
        summary: 'Add a section group at the end of the site, holding the given sections in that order',
        params: SiteParams,
        body: CreateGroupBody,
        response: { 201: SiteSectionGroup, ...errorResponses },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const group = await sites.createSectionGroup({ site: siteRef(req.params), title: b.title, icon: b.icon ?? undefined, sectionIds: b.sections ?? [] }, req.caller);
      return reply.code(201).send((await present(req, [{ group }])).group(group));
    },
  );

  app.patch(
    `${base}/section-groups/:siteSectionGroupId`,
    {
      schema: {
        operationId: 'updateSiteSectionGroupById',
        tags: ['site-section-groups'],
        summary: 'Update a section group; icon null removes it',
        params: GroupParams,
        body: UpdateGroupBody,
        response: { 200: SiteSectionGroup, ...errorResponses },
      },
    },
    async (req) => {
      const icon = settable(req.body.icon);
      const group = await sites.updateSectionGroup(
        { site: siteRef(req.params), groupId: req.params.siteSectionGroupId, title: req.body.title, setIcon: icon.set, icon: icon.value },
        req.caller,
      );
      return (await present(req, [{ group }])).group(group);
    },
  );

  app.delete(
    `${base}/section-groups/:siteSectionGroupId`,
    {
      schema: {
        operationId: 'deleteSiteSectionGroupById',
        tags: ['site-section-groups'],
        summary: 'Delete a section group; its sections stay, in its place',
        params: GroupParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await sites.deleteSectionGroup({ site: siteRef(req.params), groupId: req.params.siteSectionGroupId }, req.caller);
      return reply.code(205).send();
    },
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/sections`,
    {
      schema: {
        operationId: 'addSectionToGroup',
        tags: ['site-section-groups'],
        summary: 'Put a section at the end of a group',
        params: GroupParams,
        body: AddSectionToGroupBody,
        response: { 201: SiteSectionGroup, ...errorResponses },
      },
    },
    async (req, reply) => {
      const group = await sites.addSectionToGroup({ site: siteRef(req.params), groupId: req.params.siteSectionGroupId, sectionId: req.body.sectionId }, req.caller);
      return reply.code(201).send((await present(req, [{ group }])).group(group));
    },
  );

  app.delete(
    `${base}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
    {
      schema: {
        operationId: 'removeSectionFromGroup',
        tags: ['site-section-groups'],
        summary: 'Take a section out of a group, to right after the group',
        params: GroupSectionParams,
        response: { 205: NoContent, ...errorResponses },
      },
    },
    async (req, reply) => {
      await sites.removeSectionFromGroup({ site: siteRef(req.params), groupId: req.params.siteSectionGroupId, sectionId: req.params.siteSectionId }, req.caller);
      return reply.code(205).send();
    },
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/move`,
    {
      schema: {
        operationId: 'moveSiteSectionGroup',
        tags: ['site-section-groups'],
        summary: 'Move a section group beside a top-level section or group (deprecated: use the site structure sort)',
        params: GroupParams,
        body: MoveGroupBody,
        response: { 200: SiteSectionGroup, ...errorResponses },
      },
    },
    async (req) => {
      const at = anchors(req.body.position, (p) => p);
      const { group } = await sites.moveSiteItem({ site: siteRef(req.params), item: { type: 'site-section-group', id: req.params.siteSectionGroupId }, ...at }, req.caller);
      return (await present(req, [{ group }])).group(group!);
    },
  );

  // Structure

  app.get(
    `${base}/structure`,
    {
      schema: {
        operationId: 'getSiteStructure',
        tags: ['site-structure'],
        summary: 'The ordered sections and groups of a site, or its site-spaces when it has no sections',
        params: SiteParams,
        querystring: ShareKeyQuery,
        response: { 200: SiteStructure, ...errorResponses },
      },
    },
    async (req) => {
      const s = await sites.getSiteStructure({ site: siteRef(req.params), shareKey: req.query.shareKey }, req.caller);
      return (await present(req, s.items)).structure(s);
    },
  );

  app.patch(
    `${base}/structure/sort`,
    {
      schema: {
        operationId: 'sortSiteStructure',
        tags: ['site-structure'],
        summary: 'Move a site-space, section or group before or after another item, or to the end',
        params: SiteParams,
        body: SortStructureBody,
        response: { 200: SiteStructureItem, ...errorResponses },
      },
    },
    async (req) => {
      const item = await sites.moveSiteItem({ site: siteRef(req.params), item: req.body.item, ...anchors(req.body.position, (p) => p) }, req.caller);
      return (await present(req, [item])).item(item);
    },
  );
};

export default routes;
