import { COMMENT, PAGE } from '@quire/proto/limits';
import { Type } from '@sinclair/typebox';
import { mcpTool, textResult, toolError, type McpTool } from '@quire/service-kit/mcp';
import { apiMessage, seg, type Api } from './api.ts';

// The organization's MCP tools: each one calls the public API as the caller, and notes the
// organization it touched so that its audit entry lands in that organization's log.

const Id = (description: string) => Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$', description });
const SpaceId = Id('The space id (listSpaces gives them)');
const ChangeRequestId = Id('The change request id (createChangeRequest gives it)');
const Markdown = (description: string, maxLength: number) => Type.String({ minLength: 1, maxLength, description });
/** Enough spaces and results for an assistant's context; the API's own pages go further. */
const LIST_LIMIT = 100;

export interface ToolContext {
  api: Api;
  /** The organization a call read or changed (its audit entry goes there). */
  touched: Set<string>;
}

interface PageJson {
  id: string;
  title: string;
  path?: string;
  type: string;
  pages?: PageJson[];
  markdown?: string;
}

/** The space (and so its organization) as the caller sees it; a refusal when they do not. */
async function spaceOf(ctx: ToolContext, spaceId: string) {
  const res = await ctx.api('GET', `/spaces/${seg(spaceId)}`);
  if (res.status !== 200) return { error: toolError(`Space ${spaceId}: ${apiMessage(res)}`) };
  ctx.touched.add(res.body.organization);
  return { space: res.body as { id: string; title: string; organization: string } };
}

async function organizationIds(ctx: ToolContext, given?: string): Promise<string[] | { error: ReturnType<typeof toolError> }> {
  if (given) {
    const res = await ctx.api('GET', `/orgs/${seg(given)}`);
    return res.status === 200 ? [given] : { error: toolError(`Organization ${given}: ${apiMessage(res)}`) };
  }
  const res = await ctx.api('GET', `/orgs?limit=${LIST_LIMIT}`);
  return res.status === 200 ? res.body.items.map((o: { id: string }) => o.id) : { error: toolError(apiMessage(res)) };
}

const flatten = (pages: PageJson[], depth = 0): string[] =>
  pages.flatMap((p) => [`${'  '.repeat(depth)}- ${p.title} (${p.type}${p.path !== undefined ? `, path: ${p.path}` : ''}, id: ${p.id})`, ...flatten(p.pages ?? [], depth + 1)]);

const contentBase = (spaceId: string, changeRequestId?: string) =>
  changeRequestId ? `/spaces/${seg(spaceId)}/change-requests/${seg(changeRequestId)}/content` : `/spaces/${seg(spaceId)}/content`;

export function readTools(ctx: ToolContext): McpTool[] {
  return [
    mcpTool({
      name: 'listSpaces',
      title: 'List spaces',
      description: 'The spaces the caller sees in their organizations (or in one), with their ids: the other tools take a space id.',
      input: Type.Object({ organizationId: Type.Optional(Id('Only this organization')) }, { additionalProperties: false }),
      readOnly: true,
      async run({ organizationId }) {
        const orgs = await organizationIds(ctx, organizationId);
        if ('error' in orgs) return orgs.error;
        const lines: string[] = [];
        for (const org of orgs) {
          const res = await ctx.api('GET', `/orgs/${seg(org)}/spaces?limit=${LIST_LIMIT}`);
          if (res.status !== 200) return toolError(apiMessage(res));
          ctx.touched.add(org);
          for (const s of res.body.items) lines.push(`- ${s.title} (space id: ${s.id}, organization: ${org}, ${s.visibility}) ${s.urls?.app ?? ''}`.trimEnd());
        }
        return textResult(lines.length ? lines.join('\n') : 'No spaces.');
      },
    }),
    mcpTool({
      name: 'searchDocumentation',
      title: 'Search the documentation',
      description: "Full-text search of the organization's spaces (or of one space): pages best first, with the sections that match.",
      input: Type.Object(
        {
          query: Type.String({ minLength: 1, maxLength: 512, description: 'Words, "phrases", -excluded words' }),
          spaceId: Type.Optional(SpaceId),
          organizationId: Type.Optional(Id('Only this organization')),
        },
        { additionalProperties: false },
      ),
      readOnly: true,
      async run({ query, spaceId, organizationId }) {
        const q = `query=${encodeURIComponent(query)}&limit=20`;
        const groups: { id: string; title: string; pages: { id: string; title: string; path: string; sections: { title: string; body: string }[] }[] }[] = [];
        if (spaceId) {
          const found = await spaceOf(ctx, spaceId);
          if (found.error) return found.error;
          const res = await ctx.api('GET', `/spaces/${seg(spaceId)}/search?${q}`);
          if (res.status !== 200) return toolError(apiMessage(res));
          groups.push({ id: spaceId, title: found.space.title, pages: res.body.items });
        } else {
          const orgs = await organizationIds(ctx, organizationId);
          if ('error' in orgs) return orgs.error;
          for (const org of orgs) {
            const res = await ctx.api('GET', `/orgs/${seg(org)}/search?${q}`);
            if (res.status !== 200) return toolError(apiMessage(res));
            ctx.touched.add(org);
            groups.push(...res.body.items);
          }
        }
        const text = groups.flatMap((space) =>
          space.pages.map((p) =>
            [
              `## ${p.title}`,
              `space: ${space.title} (id: ${space.id}), page id: ${p.id}, path: ${p.path}`,
              ...p.sections.map((s) => `${s.title ? `${s.title}: ` : ''}${s.body}`),
            ].join('\n'),
          ),
        );
        return textResult(text.length ? text.join('\n\n') : `Nothing found for "${query}".`);
      },
    }),
    mcpTool({
      name: 'listPages',
      title: 'List pages',
      description: "A space's pages as a tree, with their ids and paths; in a change request when one is named.",
      input: Type.Object({ spaceId: SpaceId, changeRequestId: Type.Optional(ChangeRequestId) }, { additionalProperties: false }),
      readOnly: true,
      async run({ spaceId, changeRequestId }) {
        const found = await spaceOf(ctx, spaceId);
        if (found.error) return found.error;
        const res = await ctx.api('GET', `${contentBase(spaceId, changeRequestId)}/pages`);
        if (res.status !== 200) return toolError(apiMessage(res));
        return textResult(flatten(res.body.pages).join('\n') || 'The space has no pages.');
      },
    }),
    mcpTool({
      name: 'getPage',
      title: 'Read a page',
      description: 'A page as markdown, by its id or its path; in a change request when one is named.',
      input: Type.Object(
        {
          spaceId: SpaceId,
          pageId: Type.Optional(Id('The page id')),
          path: Type.Optional(Type.String({ maxLength: 2048, description: 'The page path (slugs joined by "/"), when no page id is given' })),
          changeRequestId: Type.Optional(ChangeRequestId),
        },
        { additionalProperties: false },
      ),
      readOnly: true,
      async run({ spaceId, pageId, path, changeRequestId }) {
        if (!pageId && path === undefined) return toolError('Name the page: pageId, or path');
        const found = await spaceOf(ctx, spaceId);
        if (found.error) return found.error;
        const where = pageId ? `page/${seg(pageId)}` : `path/${path!.split('/').map(seg).join('/')}`;
        const res = await ctx.api('GET', `${contentBase(spaceId, changeRequestId)}/${where}?format=markdown`);
        if (res.status !== 200) return toolError(apiMessage(res));
        const page = res.body as PageJson;
        return textResult(`# ${page.title}\n\n${page.markdown ?? ''}`.trimEnd());
      },
    }),
  ];
}

export function writeTools(ctx: ToolContext): McpTool[] {
  return [
    mcpTool({
      name: 'createChangeRequest',
      title: 'Open a change request',
      description: 'Opens a change request on a space: edits go there for review, never into the space directly.',
      input: Type.Object({ spaceId: SpaceId, subject: Type.String({ minLength: 1, maxLength: 100, description: 'What the change is about' }) }, { additionalProperties: false }),
      readOnly: false,
      async run({ spaceId, subject }) {
        const found = await spaceOf(ctx, spaceId);
        if (found.error) return found.error;
        const res = await ctx.api('POST', `/spaces/${seg(spaceId)}/change-requests`, { subject });
        if (res.status !== 200 && res.status !== 201) return toolError(apiMessage(res));
        return textResult(`Opened change request #${res.body.number} "${subject}" (changeRequestId: ${res.body.id}) ${res.body.urls?.app ?? ''}`.trimEnd());
      },
    }),
    mcpTool({
      name: 'writePage',
      title: 'Write a page in a change request',
      description: "Replaces a page's markdown in a change request (pageId), or adds a new page (title, optionally under parentPageId).",
      input: Type.Object(
        {
          spaceId: SpaceId,
          changeRequestId: ChangeRequestId,
          markdown: Markdown("The page's whole body, as markdown", PAGE.markdown.max),
          pageId: Type.Optional(Id('The page to replace')),
          title: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: "The page's title (required for a new page)" })),
          parentPageId: Type.Optional(Id('For a new page: the page it goes under')),
        },
        { additionalProperties: false },
      ),
      readOnly: false,
      async run({ spaceId, changeRequestId, markdown, pageId, title, parentPageId }) {
        if (!pageId && !title) return toolError('A new page needs a title (or name the page to replace: pageId)');
        const found = await spaceOf(ctx, spaceId);
        if (found.error) return found.error;
        const change = pageId
          ? { operation: 'update_page', page: pageId, document: { markdown }, ...(title ? { title } : {}) }
          : { operation: 'insert_page', title, document: { markdown }, ...(parentPageId ? { into: parentPageId } : {}) };
        const res = await ctx.api('POST', `/spaces/${seg(spaceId)}/change-requests/${seg(changeRequestId)}/content`, { changes: [change] });
        if (res.status !== 200) return toolError(apiMessage(res));
        return textResult(`${pageId ? 'Updated' : 'Added'} the page in change request #${res.body.number} ${res.body.urls?.app ?? ''}`.trimEnd());
      },
    }),
    mcpTool({
      name: 'comment',
      title: 'Comment on a change request',
      description: 'Posts a comment (markdown) on a change request, optionally on one of its pages.',
      input: Type.Object(
        { spaceId: SpaceId, changeRequestId: ChangeRequestId, markdown: Markdown('The comment', COMMENT.markdown.max), pageId: Type.Optional(Id('The page the comment is about')) },
        { additionalProperties: false },
      ),
      readOnly: false,
      async run({ spaceId, changeRequestId, markdown, pageId }) {
        const found = await spaceOf(ctx, spaceId);
        if (found.error) return found.error;
        const res = await ctx.api('POST', `/spaces/${seg(spaceId)}/change-requests/${seg(changeRequestId)}/comments`, { body: { markdown }, ...(pageId ? { page: pageId } : {}) });
        if (res.status !== 200 && res.status !== 201) return toolError(apiMessage(res));
        return textResult(`Commented (comment id: ${res.body.id}).`);
      },
    }),
  ];
}
