import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ListOf, ListQuery, NoContent, pageRequest } from '../schemas/common.ts';
import {
  AddSectionToGroupBody,
  CreateGroupBody,
  CreateSectionBody,
  GroupParams,
  GroupSectionParams,
  ListSectionsQuery,
  MoveGroupBody,
  MoveSectionBody,
  SectionParams,
  SiteParams,
  SiteSection,
  SiteSectionGroup,
  UpdateGroupBody,
  UpdateSectionBody,
} from '../schemas/sites.ts';
import type { RouteDeps } from './context.ts';
import { done, operations } from './operation.ts';
import { anchors, base, deprecated, itemPresenters, settable } from './site-items.ts';
import { siteRef } from './sites.ts';

const sectionOp = operations('site-sections');
const groupOp = operations('site-section-groups');

/** The sections of a site and the groups that gather them. */
export const sectionRoutes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, deps) => {
  const { sites } = deps.services;
  const { sections, groups } = itemPresenters(deps);

  app.get(
    `${base}/sections`,
    sectionOp({
      operationId: 'listSiteSections',
      summary: 'List the sections of a site',
      params: SiteParams,
      querystring: ListSectionsQuery,
      response: { 200: ListOf(SiteSection) },
    }),
    async (req) => sections.page(req, await sites.listSections({ site: siteRef(req.params), page: pageRequest(req.query), shareKey: req.query.shareKey }, req.caller)),
  );

  app.post(
    `${base}/sections`,
    sectionOp({
      operationId: 'addSectionToSite',
      summary: "Add a section holding a space; a site's first section is its default, and takes the site-spaces it had at its root along",
      params: SiteParams,
      body: CreateSectionBody,
      response: { 201: SiteSection },
    }),
    async (req, reply) => {
      const { spaceId, title, icon } = req.body;
      const section = await sites.createSection({ site: siteRef(req.params), spaceId, title: title ?? undefined, icon: icon ?? undefined }, req.caller);
      return reply.code(201).send(await sections.one(req, section));
    },
  );

  app.patch(
    `${base}/sections/:siteSectionId`,
    sectionOp({
      operationId: 'updateSiteSectionById',
      summary: 'Update a section; condition, icon and description null remove them',
      params: SectionParams,
      body: UpdateSectionBody,
      response: { 200: SiteSection },
    }),
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
      return sections.one(req, section);
    },
  );

  app.delete(
    `${base}/sections/:siteSectionId`,
    sectionOp({ operationId: 'deleteSiteSectionById', summary: 'Delete a section with its site-spaces', params: SectionParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, sites.deleteSection({ site: siteRef(req.params), sectionId: req.params.siteSectionId }, req.caller)),
  );

  app.post(
    `${base}/sections/:siteSectionId/move`,
    sectionOp({
      operationId: 'moveSiteSection',
      summary: `Move a section beside another ${deprecated}`,
      params: SectionParams,
      body: MoveSectionBody,
      response: { 200: SiteSection },
    }),
    async (req) => {
      const at = anchors(req.body.position, (p) => ({ type: p.type, id: p.siteSection }));
      const { section } = await sites.moveSiteItem({ site: siteRef(req.params), item: { type: 'site-section', id: req.params.siteSectionId }, ...at }, req.caller);
      return sections.one(req, section!);
    },
  );

  // Section groups

  app.get(
    `${base}/section-groups`,
    groupOp({
      operationId: 'listSiteSectionGroups',
      summary: 'List the section groups of a site',
      params: SiteParams,
      querystring: Type.Object(ListQuery),
      response: { 200: ListOf(SiteSectionGroup) },
    }),
    async (req) => groups.page(req, await sites.listSectionGroups({ site: siteRef(req.params), page: pageRequest(req.query) }, req.caller)),
  );

  app.post(
    `${base}/section-groups`,
    groupOp({
      operationId: 'addSectionGroupToSite',
      summary: 'Add a section group at the end of the site, holding the given sections in that order',
      params: SiteParams,
      body: CreateGroupBody,
      response: { 201: SiteSectionGroup },
    }),
    async (req, reply) => {
      const { title, icon, sections: sectionIds } = req.body;
      const group = await sites.createSectionGroup({ site: siteRef(req.params), title, icon: icon ?? undefined, sectionIds: sectionIds ?? [] }, req.caller);
      return reply.code(201).send(await groups.one(req, group));
    },
  );

  app.patch(
    `${base}/section-groups/:siteSectionGroupId`,
    groupOp({
      operationId: 'updateSiteSectionGroupById',
      summary: 'Update a section group; icon null removes it',
      params: GroupParams,
      body: UpdateGroupBody,
      response: { 200: SiteSectionGroup },
    }),
    async (req) => {
      const icon = settable(req.body.icon);
      const group = await sites.updateSectionGroup(
        { site: siteRef(req.params), groupId: req.params.siteSectionGroupId, title: req.body.title, setIcon: icon.set, icon: icon.value },
        req.caller,
      );
      return groups.one(req, group);
    },
  );

  app.delete(
    `${base}/section-groups/:siteSectionGroupId`,
    groupOp({ operationId: 'deleteSiteSectionGroupById', summary: 'Delete a section group; its sections stay, in its place', params: GroupParams, response: { 205: NoContent } }),
    async (req, reply) => done(reply, 205, sites.deleteSectionGroup({ site: siteRef(req.params), groupId: req.params.siteSectionGroupId }, req.caller)),
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/sections`,
    groupOp({
      operationId: 'addSectionToGroup',
      summary: 'Put a section at the end of a group',
      params: GroupParams,
      body: AddSectionToGroupBody,
      response: { 201: SiteSectionGroup },
    }),
    async (req, reply) => {
      const group = await sites.addSectionToGroup({ site: siteRef(req.params), groupId: req.params.siteSectionGroupId, sectionId: req.body.sectionId }, req.caller);
      return reply.code(201).send(await groups.one(req, group));
    },
  );

  app.delete(
    `${base}/section-groups/:siteSectionGroupId/sections/:siteSectionId`,
    groupOp({
      operationId: 'removeSectionFromGroup',
      summary: 'Take a section out of a group, to right after the group',
      params: GroupSectionParams,
      response: { 205: NoContent },
    }),
    async (req, reply) =>
      done(reply, 205, sites.removeSectionFromGroup({ site: siteRef(req.params), groupId: req.params.siteSectionGroupId, sectionId: req.params.siteSectionId }, req.caller)),
  );

  app.post(
    `${base}/section-groups/:siteSectionGroupId/move`,
    groupOp({
      operationId: 'moveSiteSectionGroup',
      summary: `Move a section group beside a top-level section or group ${deprecated}`,
      params: GroupParams,
      body: MoveGroupBody,
      response: { 200: SiteSectionGroup },
    }),
    async (req) => {
      const at = anchors(req.body.position, (p) => p);
      const { group } = await sites.moveSiteItem({ site: siteRef(req.params), item: { type: 'site-section-group', id: req.params.siteSectionGroupId }, ...at }, req.caller);
      return groups.one(req, group!);
    },
  );
};
