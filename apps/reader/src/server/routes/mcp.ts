import { answerMcp, jsonRpcError, MCP_REFUSED, mcpTool, textResult, toolError, type McpResources, type McpTool } from '@quire/service-kit/mcp';
import type { FastifyReply } from 'fastify';
import type { Refusal } from '../../domain/access.ts';
import { Type } from '@sinclair/typebox';
import { pathIn, segments } from '../../domain/address.ts';
import { findByPath, firstPage, listed } from '../../domain/pages.ts';
import { place, siteSpacePrefix } from '../../domain/structure.ts';
import type { SiteData } from '../site-data.ts';
import { MAX_QUERY, searchSite } from '../site-search.ts';
import type { Track } from '../tracking.ts';
import type { Visit } from '../visit.ts';
import { everyPage } from './llms.ts';
import type { pages } from './pages.ts';

// A site's MCP server at `<site>/~gitbook/mcp` (GitBook's path, so assistants configured for a
// GitBook site keep working): the site as its visitor reads it, found, listed and read as
// markdown, and each page a resource. The visit decided access (public, share key, visitor token
// as a bearer, adaptive claims) before any tool runs; hidden pages stay out, as they stay out of
// navigation. Calls count in insights as an assistant's (origin `mcp`), apart from visitors'.

const SNIPPET_CHARS = 300;
// What a call asked, as insights keeps a query.
const ASKED_CHARS = 512;

/** A JSON-RPC message is a tool call with its arguments: a few kilobytes. */
export const MCP_BODY_LIMIT = 64 * 1024;

/**
 * A refused visit as an MCP client reads it: 401 with a bearer challenge where a key or token
 * would let it in, 403 where the one sent no longer does; the message says what to send.
 */
export function refuseMcp(reply: FastifyReply, refused: Refusal) {
  const status = refused.kind === 'redirect' ? 401 : refused.status;
  const message =
    refused.kind === 'redirect'
      ? `This site is for signed-in visitors: send your visitor token as a bearer (sign in at ${refused.location})`
      : `${refused.title}. ${refused.message}`;
  if (status === 401) void reply.header('www-authenticate', 'Bearer');
  return reply.code(status).send(jsonRpcError(MCP_REFUSED, message));
}

/** The start of a passage, cut at a word. */
function snippet(text: string): string {
  if (text.length <= SNIPPET_CHARS) return text;
  const cut = text.slice(0, SNIPPET_CHARS);
  const space = cut.lastIndexOf(' ');
  return `${space > SNIPPET_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

/** The pages of the site a visit reads, found by URL or path. */
function readable(data: SiteData, v: Visit) {
  const structure = v.view.structure!;
  const urlOf = (prefix: string[], path: string) => `${v.origin}${pathIn(v.at.base, [...prefix, ...path.split('/')])}`;

  /** The page a URL of this site or a path below it names, when a visitor may read it. */
  async function pageAt(where: string) {
    let path = where;
    if (/^https?:\/\//i.test(where)) {
      const url = new URL(where);
      if (url.origin !== v.origin || !`${url.pathname}/`.startsWith(`${v.at.base}/`)) return undefined;
      path = url.pathname.slice(v.at.base.length);
    }
    const rest = segments(`/${path.replace(/^\/+/, '').replace(/\.md$/i, '')}`);
    const placement = rest && place(structure, rest);
    if (!placement) return undefined;
    const revision = await data.revision(placement.siteSpace.spaceId, v.req.id);
    const wanted = placement.pagePath.join('/');
    const node = wanted === '' ? firstPage(revision.pages) : findByPath(revision.pages, wanted);
    if (!node || node.page.type !== 'document' || !listed(revision.pages, node.page.id)) return undefined;
    return { placement, revision, page: node.page, url: urlOf(siteSpacePrefix(placement.section, placement.siteSpace), node.page.path) };
  }
  return { structure, urlOf, pageAt };
}

type Found = NonNullable<Awaited<ReturnType<ReturnType<typeof readable>['pageAt']>>>;

export function mcpRoute(data: SiteData, track: Track, { pageMarkdown }: ReturnType<typeof pages>) {
  /**
   * An assistant's call as its insights event: the tool (or `resources/read`), what it asked (a
   * query, a page's URL) and whether it found anything, so that what assistants miss shows.
   */
  function called(v: Visit, type: string, location: Parameters<Track>[2], tool: string, asked: string | undefined, found: boolean) {
    track(v, type, location, { tool, found, ...(asked === undefined ? {} : { query: asked.slice(0, ASKED_CHARS) }) }, 'mcp');
  }

  /** A page as its `.md` serves it, counted as the assistant's page view. */
  async function read(v: Visit, { placement, revision, page, url }: Found, tool: string, asked: string) {
    const location = { url, section: placement.section?.id, siteSpace: placement.siteSpace.id, space: placement.siteSpace.spaceId, revision: revision.id, page: page.id };
    called(v, 'page_view', location, tool, asked, true);
    return `# ${page.title}\n\n${await pageMarkdown(placement.siteSpace.spaceId, revision, page.id, v.req.id, v.view.site!.organizationId)}`;
  }

  function tools(v: Visit): McpTool[] {
    const { structure, urlOf, pageAt } = readable(data, v);
    return [
      mcpTool({
        name: 'searchDocumentation',
        title: 'Search the documentation',
        description: `Searches ${v.view.look.title} and answers the pages found, best first, each with its title, URL and the passage that matched. Read a page with getPage.`,
        input: Type.Object({ query: Type.String({ minLength: 1, maxLength: MAX_QUERY, description: 'What to look for, in words' }) }, { additionalProperties: false }),
        readOnly: true,
        async run({ query }) {
          const { hits } = await searchSite(data, structure, query, v.req.id);
          const results = hits.map(({ page: p, prefix }) => {
            const best = p.sections[0];
            return `## ${p.title}\nURL: ${urlOf(prefix, p.path)}${best?.id ? `#${best.id}` : ''}\n${best ? `${best.title ? `${best.title}: ` : ''}${snippet(best.body)}` : ''}`.trim();
          });
          called(v, 'search_type_query', { url: `${v.origin}${v.at.base}/` }, 'searchDocumentation', query, results.length > 0);
          return textResult(results.length ? results.join('\n\n') : `No page of ${v.view.look.title} matches "${query}".`);
        },
      }),
      mcpTool({
        name: 'getPage',
        title: 'Read a page',
        description: 'A page of the documentation as markdown, by its URL (as searchDocumentation or listPages give it) or its path below the site.',
        input: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048, description: "The page's URL or path" }) }, { additionalProperties: false }),
        readOnly: true,
        async run({ url }) {
          const found = await pageAt(url);
          if (found) return textResult(await read(v, found, 'getPage', url));
          called(v, 'page_view', { url: `${v.origin}${v.at.base}/` }, 'getPage', url, false);
          return toolError(`No page of ${v.view.look.title} at "${url}": listPages names every page.`);
        },
      }),
      mcpTool({
        name: 'listPages',
        title: 'List the pages',
        description: 'Every page of the documentation in reading order, with its URL and description, grouped by section.',
        input: Type.Object({}, { additionalProperties: false }),
        readOnly: true,
        async run() {
          const lines: string[] = [];
          let group = '';
          for (const p of await everyPage(data, v)) {
            if (p.siteSpace !== group) lines.push(...(lines.length ? [''] : []), `## ${p.siteSpace}`);
            group = p.siteSpace;
            lines.push(`- ${p.page.title}: ${p.url}${p.page.description ? ` (${p.page.description})` : ''}`);
          }
          called(v, 'page_view', { url: `${v.origin}${v.at.base}/` }, 'listPages', undefined, lines.length > 0);
          return textResult(lines.join('\n'));
        },
      }),
    ];
  }

  /** Every page a resource at its `.md` URL: listed as listPages lists them, read as getPage reads them. */
  function resources(v: Visit): McpResources {
    const { pageAt } = readable(data, v);
    const base = `${v.origin}${v.at.base}/`;
    return {
      name: 'page',
      title: 'Pages',
      description: `A page of ${v.view.look.title} as markdown, at its URL with .md`,
      uriTemplate: `${base}{+path}.md`,
      mimeType: 'text/markdown',
      async list() {
        return (await everyPage(data, v))
          .filter((p) => p.page.type === 'document')
          .map((p) => ({ uri: `${p.url}.md`, name: p.url.slice(base.length), title: p.page.title, ...(p.page.description ? { description: p.page.description } : {}) }));
      },
      async read(uri) {
        const found = await pageAt(uri.href);
        if (found) return read(v, found, 'resources/read', uri.href);
        called(v, 'page_view', { url: `${v.origin}${v.at.base}/` }, 'resources/read', uri.href, false);
        return undefined;
      },
    };
  }

  return (v: Visit) =>
    answerMcp(
      v.req,
      v.reply,
      {
        name: v.view.look.title,
        version: '1.0.0',
        instructions: `The documentation of ${v.view.look.title}: search it, list its pages and read them as markdown (also as resources).`,
      },
      { tools: tools(v), resources: [resources(v)] },
    );
}
