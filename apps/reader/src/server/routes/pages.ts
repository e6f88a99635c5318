import { createHash } from 'node:crypto';
import type { File, Page, Revision } from '@quire/proto/space-content';
import type { SiteSection, SiteSpace } from '@quire/proto/sites';
import { mentionedUsers } from '@quire/document';
import { includedIds, includeTargets, inlineMarkdown, prepareDocument, renderPrepared } from '@quire/render';
import { LRUCache } from 'lru-cache';
import { pathIn } from '../../domain/address.ts';
import { coverOf, shownOf } from '../../domain/page-look.ts';
import { findById, findByPath, firstPage, neighbours, redirectOf } from '../../domain/pages.ts';
import { sectionEntry, siteSpacePrefix, type Placement } from '../../domain/structure.ts';
import { ASSETS } from '../../presenters/assets.ts';
import { sitePage, type Chrome } from '../../presenters/views/page.ts';
import { gzip, html, takesGzip } from '../respond.ts';
import type { OpenApiPages } from '../openapi-page.ts';
import type { SiteData } from '../site-data.ts';
import type { Track } from '../tracking.ts';
import type { Visit } from '../visit.ts';

const OPENAPI_TAG = /\{% openapi/;
/** A block's tag as written, closed, with its method and path (attributes in the order the writer puts them). */
const OPENAPI_TAGS = /\{% openapi(?:-operation)? [^\n]*?path="([^"]*)" method="([^"]*)" %\}[\s\S]*?\{% endopenapi(?:-operation)? %\}/g;

/** Pages as sent: their bytes (not a string encoded again on every request) and gzipped. */
export type Rendered = LRUCache<string, { html: Buffer; gzip: Buffer }>;

/** The pages of a site: each rendered once per version (ETag) and kept gzipped, or its markdown. */
export function pages({ data, rendered, track, openApi }: { data: SiteData; rendered: Rendered; track: Track; openApi: OpenApiPages }) {
  // Pages showing operations of specs that change under the same revision (a URL's, the
  // organization's), by the ETag of their revision: their specs' version is part of their own.
  const changing = new LRUCache<string, ReturnType<OpenApiPages['changingBlocks']>>({ max: rendered.max });

  /** Links of a placement: tabs, variants, pages. */
  function chromeOf(v: Visit, placement: Placement, revision: Revision, currentPageId?: string): Chrome {
    const base = v.at.base;
    const spaceHref = (section: SiteSection | undefined, siteSpace: SiteSpace) => pathIn(base, siteSpacePrefix(section, siteSpace)).replace(/\/$/, '') || '/';
    const hrefOf = (page: Page) => pathIn(base, [...siteSpacePrefix(placement.section, placement.siteSpace), ...page.path.split('/')]);
    return {
      look: v.view.look,
      home: base || '/',
      base,
      tabs: placement.tabs.map((t) => {
        const entry = sectionEntry(t.section);
        return { title: t.section.title, href: entry ? spaceHref(t.section, entry) : base || '/', current: t.section.id === placement.section?.id, group: t.group?.title };
      }),
      variants: placement.variants.map((s) => ({ title: s.title, href: spaceHref(placement.section, s), current: s.id === placement.siteSpace.id })),
      pages: revision.pages,
      hrefOf,
      currentPageId,
    };
  }

  const metaOf = (v: Visit, title: string, path: string, description?: string) => ({
    title,
    siteTitle: v.view.look.title,
    description: description || undefined,
    canonical: `${v.origin}${path}`,
    noindex: v.view.site!.visibility !== 'public',
    base: v.at.base,
    look: v.view.look,
  });

  /** Where a site-space's pages live, with its revision. */
  async function spaceOf(v: Visit, placement: Placement) {
    const revision = await data.revision(placement.siteSpace.spaceId, v.req.id);
    return { revision, chrome: chromeOf(v, placement, revision) };
  }

  async function readPage(v: Visit, placement: Placement) {
    const { revision, chrome } = await spaceOf(v, placement);
    const pathText = placement.pagePath.join('/');
    const markdownWanted = /\.md$/i.test(pathText);
    const wanted = markdownWanted ? pathText.replace(/\.md$/i, '') : pathText;
    const node = wanted === '' ? firstPage(revision.pages) : findByPath(revision.pages, wanted);
    const location = { section: placement.section?.id, siteSpace: placement.siteSpace.id, space: placement.siteSpace.spaceId, revision: revision.id };
    if (!node) {
      // An old path the space's Git repository redirects (`.gitbook.yaml`): for good, to its page.
      const moved = markdownWanted ? undefined : redirectOf(revision.pages, revision.redirects, wanted);
      if (moved) return v.reply.redirect(`${chrome.hrefOf(moved.page)}${moved.anchor ? `#${encodeURIComponent(moved.anchor)}` : ''}`, 301);
      track(v, 'page_view', location);
      return html(v.reply, 404, sitePage(metaOf(v, 'Page not found', v.req.url.split('?')[0]!), chrome, { missing: `No page at “${wanted}” in ${placement.siteSpace.title}.` }));
    }
    const page = node.page;
    if (page.type === 'link') return v.reply.redirect(/^(https?:|mailto:)/i.test(page.href) ? page.href : chrome.hrefOf(page).replace(/\/[^/]*$/, '/') + page.href, 302);
    track(v, 'page_view', { ...location, page: page.id });

    if (markdownWanted)
      return v.reply
        .type('text/markdown; charset=utf-8')
        .send(`# ${page.title}\n\n${await pageMarkdown(placement.siteSpace.spaceId, revision, page.id, v.req.id, v.view.site!.organizationId)}`);

    const revisionTag = createHash('sha256').update([v.view.digest, revision.id, page.id, ASSETS.css.path, ASSETS.js.path, v.at.base, v.origin].join('|')).digest('base64url');
    const specsAt = { files: revision.files, organizationId: v.view.site!.organizationId, requestId: v.req.id };
    const etagOf = async (blocks = changing.get(revisionTag)) => `"${revisionTag.slice(0, 27)}${blocks ? await openApi.version(blocks, specsAt) : ''}"`;
    let etag = await etagOf();
    if (v.req.headers['if-none-match'] === etag) return v.reply.header('etag', etag).code(304).send();
    let kept = rendered.get(etag);
    if (!kept) {
      // The stored model, so the site shows what the editor wrote (markdown cannot carry all of it).
      const document = await data.document(placement.siteSpace.spaceId, revision.id, page.id, v.req.id);
      const files = revision.files;
      const fileHref = (f: File) => `${v.at.base}/~files/${encodeURIComponent(placement.siteSpace.id)}/${encodeURIComponent(f.id)}`;
      const [reusableContents, memberNames] = await Promise.all([
        data.includes(placement.siteSpace.spaceId, revision, includedIds(document), v.req.id),
        data.memberNames(v.view.site!.organizationId, mentionedUsers(document), v.req.id),
      ]);
      const ctx = { page, pages: revision.pages, files, hrefOf: chrome.hrefOf, fileHref, reusableContents, memberNames };
      const prepared = prepareDocument(document, ctx);
      const target = (block: number) => ({ action: `${v.at.base}/~gitbook/openapi/proxy`, siteSpace: placement.siteSpace.id, page: page.id, block });
      const operations = await openApi.html(prepared, specsAt, target);
      const out = renderPrepared(prepared, { ...ctx, openApi: (block) => operations.get(block) });
      const blocks = openApi.changingBlocks(prepared);
      if (blocks.length) {
        changing.set(revisionTag, blocks);
        etag = await etagOf(blocks);
      }
      const { previous, next } = neighbours(revision.pages, page.id);
      const tab = placement.tabs.length > 1 ? chrome.tabs.find((t) => t.current) : undefined;
      const crumbs = [
        ...(tab ? [{ title: tab.title, href: tab.href }] : []),
        ...node.parents.map((p) => ({ title: p.title, href: p.type === 'document' ? chrome.hrefOf(p) : undefined })),
      ];
      const body = sitePage(
        metaOf(v, page.title, chrome.hrefOf(page), page.description),
        { ...chrome, currentPageId: page.id },
        {
          title: page.title,
          description: page.description,
          html: out.html,
          outline: out.outline,
          crumbs,
          previous: previous && { title: previous.title, href: chrome.hrefOf(previous) },
          next: next && { title: next.title, href: chrome.hrefOf(next) },
          cover: coverOf(page, files, fileHref),
          shown: shownOf(page),
        },
      );
      // Encoded once: zlib given the string would encode it again.
      const bytes = Buffer.from(body);
      kept = { html: bytes, gzip: await gzip(bytes) };
      rendered.set(etag, kept);
    }
    v.reply.header('etag', etag);
    v.reply.header('vary', 'accept-encoding');
    if (!takesGzip(v.req)) return html(v.reply, 200, kept.html);
    v.reply.header('content-encoding', 'gzip');
    return html(v.reply, 200, kept.gzip);
  }

  /**
   * A page's markdown for its `.md` and llms-full.txt: what it includes written in place, for
   * readers that cannot follow an include, and each API operation written out after its block.
   */
  async function pageMarkdown(spaceId: string, revision: Revision, pageId: string, requestId: string, organizationId: string): Promise<string> {
    const md = await data.markdown(spaceId, revision.id, pageId, requestId);
    const reusableContents = await data.includes(spaceId, revision, includeTargets(md), requestId);
    const inlined = inlineMarkdown(md, reusableContents);
    const page = findById(revision.pages, pageId);
    if (!OPENAPI_TAG.test(inlined) || !page) return inlined;
    const prepared = await preparedPage(spaceId, revision, page, requestId, reusableContents);
    const written = [...(await openApi.markdown(prepared, { files: revision.files, organizationId, requestId })).entries()];
    return inlined.replace(OPENAPI_TAGS, (whole, path: string, method: string) => {
      const i = written.findIndex(([b]) => b.data.method === method && b.data.path === path);
      return i === -1 ? whole : `${whole}\n\n${written.splice(i, 1)[0]![1]}`;
    });
  }

  /** A page's document as it renders (includes in place, refs resolved), for reading its OpenAPI blocks without drawing it. */
  async function preparedPage(spaceId: string, revision: Revision, page: Page, requestId: string, reusable?: Map<string, string>) {
    const document = await data.document(spaceId, revision.id, page.id, requestId);
    const reusableContents = reusable ?? (await data.includes(spaceId, revision, includedIds(document), requestId));
    return prepareDocument(document, { page, pages: revision.pages, files: revision.files, hrefOf: () => '', fileHref: () => '', reusableContents });
  }

  return { readPage, spaceOf, metaOf, pageMarkdown, preparedPage };
}
