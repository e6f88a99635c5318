import type { Static } from '@sinclair/typebox';
import type { Document, File as FileMsg, Page as PageMsg, Revision as RevisionMsg } from '@quire/proto/space-content';
import type { LinkSigner } from '../signing.ts';
import type { DocumentJson, File, PageJson, Revision } from '../schemas/space-content.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

// GitBook's page layout defaults: everything shown, default width, full cover.
const LAYOUT = { width: 'default', cover: true, coverSize: 'full', title: true, description: true, tableOfContents: true, outline: true, pagination: true, metadata: true };
const KIND = { document: 'sheet', group: 'group', link: 'link' } as const;

/** What the presenters need: the links of the app and the signer of download links. */
export interface ContentLinks {
  urls: Urls;
  links: LinkSigner;
}

const optional = <K extends string>(key: K, value: string) => (value ? ({ [key]: value } as Record<K, string>) : {});

export function presentPage(p: PageMsg, spaceId: string, l: ContentLinks): PageJson {
  const type = p.type as PageJson['type'];
  return {
    id: p.id,
    title: p.title,
    ...optional('emoji', p.emoji),
    ...optional('icon', p.icon),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    kind: KIND[type] ?? type,
    type,
    urls: { app: l.urls.app(`/s/${spaceId}/${p.path}`) },
    slug: p.slug,
    path: p.path,
    ...optional('description', p.description),
    ...optional('documentId', p.documentId),
    ...(type === 'link' ? { href: p.href, target: { kind: 'url' as const, url: p.href } } : {}),
    pages: p.pages.map((c) => presentPage(c, spaceId, l)),
    ...(p.git ? { git: p.git } : {}),
    ...(type === 'document' ? { layout: LAYOUT } : {}),
    hidden: p.hidden,
    noIndex: false,
    noRobotsIndex: false,
    ...(p.markdown !== undefined ? { markdown: p.markdown } : {}),
    ...(p.documentJson !== undefined ? { document: JSON.parse(p.documentJson) } : {}),
  };
}

/** The signed link the bytes of a file are served on (GET /files/{blob}). */
export const downloadUrl = (links: LinkSigner, blob: string, name: string) => links.sign(`/files/${blob}`, { name });

export function presentFile(f: FileMsg, l: ContentLinks): Static<typeof File> {
  return {
    id: f.id,
    name: f.name,
    contentType: f.contentType,
    downloadURL: downloadUrl(l.links, f.blob, f.name),
    size: f.size,
    ...(f.dimensions ? { dimensions: f.dimensions } : {}),
    ...(f.git ? { git: f.git } : {}),
  };
}

/** A revision as read in `spaceId` (a duplicate reads its original's revisions as its own). */
export function presentRevision(r: RevisionMsg, spaceId: string, l: ContentLinks): Static<typeof Revision> {
  return {
    object: 'revision',
    id: r.id,
    parents: r.parents,
    pages: r.pages.map((p) => presentPage(p, spaceId, l)),
    files: r.files.map((f) => presentFile(f, l)),
    reusableContents: [],
    variables: r.variables,
    createdAt: iso(r.createdAt),
    type: r.type,
    ...(r.git ? { git: { ...r.git, createdByGitBook: r.git.createdByService } } : {}),
    urls: { app: l.urls.app(`/s/${spaceId}/~/revisions/${r.id}`) },
  };
}

export function presentDocument(d: Document): Static<typeof DocumentJson> {
  const { data, nodes } = JSON.parse(d.documentJson) as { data: Record<string, unknown>; nodes: unknown[] };
  return { object: 'document', id: d.id, markdown: d.markdown, data, nodes };
}
