import type { Page, Revision } from '@quire/proto/space-content';
import { MCP_PATH, pathIn } from '../../domain/address.ts';
import { readingOrder } from '../../domain/pages.ts';
import { allSiteSpaces, siteSpacePrefix } from '../../domain/structure.ts';
import type { SiteData } from '../site-data.ts';
import type { SiteRoute, Visit } from '../visit.ts';
import type { pages } from './pages.ts';

/** Every readable page of the site (default section and site-space first), with its URL. */
export async function everyPage(data: SiteData, v: Visit) {
  const out: { url: string; page: Page; spaceId: string; revision: Revision; siteSpace: string }[] = [];
  for (const { section, siteSpace } of allSiteSpaces(v.view.structure!)) {
    const revision = await data.revision(siteSpace.spaceId, v.req.id);
    const prefix = siteSpacePrefix(section, siteSpace);
    for (const n of readingOrder(revision.pages))
      out.push({
        url: `${v.origin}${pathIn(v.at.base, [...prefix, ...n.page.path.split('/')])}`,
        page: n.page,
        spaceId: siteSpace.spaceId,
        revision,
        siteSpace: section ? `${section.title} / ${siteSpace.title}` : siteSpace.title,
      });
  }
  return out;
}

/** The site for language models (llmstxt.org): an index of its pages, and all of them as markdown. */
export function llmsRoutes(data: SiteData, { pageMarkdown }: ReturnType<typeof pages>): Record<string, SiteRoute> {
  return {
    'llms.txt': async (v) => {
      // Assistants that read llms.txt learn here where the site's MCP server answers.
      const lines = [`# ${v.view.look.title}`, '', `> MCP server: ${v.origin}${v.at.base}/${MCP_PATH}`, ''];
      let group = '';
      for (const p of await everyPage(data, v)) {
        if (p.siteSpace !== group) lines.push('', `## ${p.siteSpace}`, '');
        group = p.siteSpace;
        lines.push(`- [${p.page.title}](${p.url}.md)${p.page.description ? `: ${p.page.description}` : ''}`);
      }
      return v.reply.type('text/plain; charset=utf-8').send(lines.join('\n') + '\n');
    },
    'llms-full.txt': async (v) => {
      const parts: string[] = [];
      for (const p of await everyPage(data, v))
        parts.push(`# ${p.page.title}\n\nSource: ${p.url}\n\n${await pageMarkdown(p.spaceId, p.revision, p.page.id, v.req.id, v.view.site!.organizationId)}`);
      return v.reply.type('text/plain; charset=utf-8').send(parts.join('\n\n---\n\n') + '\n');
    },
  };
}
