import type { Static } from '@sinclair/typebox';
import type {
  Document,
  File as FileMsg,
  GetSemanticChangesResponse,
  ImageRef,
  Page as PageMsg,
  Revision as RevisionMsg,
  ReusableContent as ReusableContentMsg,
  SemanticChange,
} from '@quire/proto/space-content';
import type { LinkSigner } from '../signing.ts';
import type { DocumentJson, File, PageJson, PageLayout, ReusableContent, Revision, SemanticChanges } from '../schemas/space-content.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

// GitBook's page layout defaults (for what the page's front matter does not set): everything
// shown, default width, full cover.
const LAYOUT: Static<typeof PageLayout> = {
  width: 'default',
  cover: true,
  coverSize: 'full',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
};
const KIND = { document: 'sheet', group: 'group', link: 'link' } as const;

/** What the presenters need: the links of the app and the signer of download links. */
export interface ContentLinks {
  urls: Urls;
  links: LinkSigner;
}

const optional = <K extends string>(key: K, value: string) => (value ? ({ [key]: value } as Record<K, string>) : {});
const definedOf = <T extends object>(o: T | undefined) => Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
const imageRef = (r: ImageRef | undefined) =>
  r?.fileId !== undefined ? { kind: 'file' as const, file: r.fileId } : r?.url !== undefined ? { kind: 'url' as const, url: r.url } : undefined;

/** A document page's layout and cover (GitBook's RevisionPageLayoutOptions and RevisionPageDocumentCover). */
function look(p: PageMsg): Pick<PageJson, 'layout' | 'cover'> {
  const ref = imageRef(p.cover?.ref);
  const refDark = imageRef(p.cover?.refDark);
  return {
    // Content answers only the widths and sizes GitBook has (it leaves out any other).
    layout: { ...LAYOUT, ...(definedOf(p.layout) as Partial<Static<typeof PageLayout>>) },
    ...(ref ? { cover: { ref, ...(refDark ? { refDark } : {}), yPos: p.cover!.yPos } } : {}),
  };
}

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
    ...(type === 'document' ? look(p) : {}),
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
    reusableContents: r.reusableContents.map(presentReusableContent),
    variables: r.variables,
    createdAt: iso(r.createdAt),
    type: r.type,
    ...(r.git ? { git: { ...r.git, createdByGitBook: r.git.createdByService } } : {}),
    urls: { app: l.urls.app(`/s/${spaceId}/~/revisions/${r.id}`) },
  };
}

export const presentReusableContent = (c: ReusableContentMsg): Static<typeof ReusableContent> => ({
  id: c.id,
  title: c.title,
  document: c.documentId,
  ...(c.git ? { git: c.git } : {}),
});

export function presentDocument(d: Document): Static<typeof DocumentJson> {
  const { data, nodes } = JSON.parse(d.documentJson) as { data: Record<string, unknown>; nodes: unknown[] };
  return { object: 'document', id: d.id, markdown: d.markdown, data, nodes };
}

type ChangeJson = Static<typeof SemanticChanges>['changes'][number];
type Sides = Record<string, { before?: unknown; after?: unknown }>;

/** The changed attributes, their JSON read; a file's `blob` is answered as GitBook's signed `downloadURL`. */
function sidesOf(c: SemanticChange, l: ContentLinks): Sides {
  const sides: Sides = {};
  for (const [name, { beforeJson, afterJson }] of Object.entries(c.attributes)) {
    const side = (json: string | undefined) => (json === undefined ? undefined : (JSON.parse(json) as unknown));
    const before = side(beforeJson);
    const after = side(afterJson);
    const key = name === 'blob' && c.file ? 'downloadURL' : name;
    const value = (v: unknown) => (key === 'downloadURL' && typeof v === 'string' ? downloadUrl(l.links, v, c.file!.name) : v);
    sides[key] = { ...(before !== undefined ? { before: value(before) } : {}), ...(after !== undefined ? { after: value(after) } : {}) };
  }
  return sides;
}

export function presentSemanticChanges(r: GetSemanticChangesResponse, l: ContentLinks): Static<typeof SemanticChanges> {
  const changes = r.changes.map((c): ChangeJson => {
    const type = c.type as ChangeJson['type'];
    if (type === 'variables_edited') return { type, variables: sidesOf(c, l) };
    if (c.file) return { type, file: presentFile(c.file, l), ...(type === 'file_edited' ? { attributes: sidesOf(c, l) } : {}) };
    const page = c.page!;
    return {
      type,
      page,
      ...(type === 'page_edited' ? { attributes: sidesOf(c, l) } : {}),
      ...(type === 'page_moved' ? { parent: { ...(c.parentBefore ? { before: c.parentBefore } : {}), ...(c.parentAfter ? { after: c.parentAfter } : {}) } } : {}),
    };
  });
  return { changes, ...(r.more ? { more: r.more } : {}) };
}
