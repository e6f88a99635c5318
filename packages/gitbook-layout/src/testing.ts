// Repositories as Git Sync reads them and spaces as content keeps them, for the layout's tests.
import { createHash } from 'node:crypto';
import { knownIds, planExport, type ExportOptions, type SpaceFile, type SpacePage, type SpaceReusableContent } from './exporter.ts';
import { planImport, type PlannedPage, type RepoSnapshot } from './importer.ts';

// A repository as Git Sync reads it: every file's oid (git's, so equal bytes have equal oids), the
// text of the markdown and YAML ones.
const oid = (text: string) =>
  createHash('sha1')
    .update(`blob ${Buffer.byteLength(text)}\0`)
    .update(text)
    .digest('hex');
export function snapshot(files: Record<string, string>): RepoSnapshot {
  const blobs = new Map<string, string>();
  const texts = new Map<string, string>();
  for (const [path, text] of Object.entries(files)) {
    blobs.set(path, oid(text));
    if (/\.(md|ya?ml)$/.test(path)) texts.set(path, text);
  }
  return { blobs, texts };
}

export const counter = () => {
  let n = 0;
  return () => `id${++n}`;
};

// What content keeps of an import: the pages with their fields, markdown and Git paths.
export const toSpace = (pages: PlannedPage[]): SpacePage[] =>
  pages.map((p) => ({
    id: p.id,
    type: p.type,
    title: p.title,
    slug: p.slug,
    emoji: p.front.emoji ?? '',
    icon: p.front.icon ?? '',
    description: p.front.description ?? '',
    hidden: p.front.hidden ?? false,
    href: p.href,
    markdown: p.markdown,
    ...(p.git ? { git: p.git } : {}),
    pages: toSpace(p.pages),
  }));

export type Space = { pages: SpacePage[]; files: SpaceFile[]; reusableContents?: SpaceReusableContent[]; redirects?: ExportOptions['redirects'] };

export function importSpace(files: Record<string, string>, projectDirectory = '', space?: Space) {
  const snap = snapshot(files);
  const known = space ? knownIds(space.pages, space.files, projectDirectory, space.reusableContents) : { pages: new Map<string, string>(), files: new Map<string, string>() };
  const plan = planImport(snap, { projectDirectory, known, newId: counter() });
  return {
    pages: toSpace(plan.pages),
    files: plan.files.map((f) => ({ id: f.id, name: f.name, git: f.git })),
    reusableContents: plan.reusableContents,
    redirects: plan.redirects.map((r) => ({ path: r.from, pageId: r.page, anchor: r.anchor })),
  };
}

/** The repository after the export (the space's redirects in a new `.gitbook.yaml`): written files (file bytes stand for their id), removed ones gone. */
export function applyExport(files: Record<string, string>, space: Space, projectDirectory = '') {
  const plan = planExport(space.pages, space.files, {
    projectDirectory,
    existing: Object.keys(files).length ? snapshot(files) : undefined,
    reusableContents: space.reusableContents,
    redirects: space.redirects,
  });
  const out = { ...files };
  for (const path of plan.remove) delete out[path];
  for (const [path, text] of plan.texts) out[path] = text;
  for (const f of space.files) {
    const path = plan.files.get(f.id)!;
    if (!(path in out)) out[path] = `bytes of ${f.name}`;
  }
  return { plan, files: out };
}

export const flat = (pages: SpacePage[]): SpacePage[] => pages.flatMap((p) => [p, ...flat(p.pages)]);
export const find = (space: { pages: SpacePage[] }, title: string) => flat(space.pages).find((p) => p.title === title)!;
export const same = (space: { pages: SpacePage[] }) => {
  const strip = (list: SpacePage[]): unknown[] => list.map(({ git: _git, ...p }) => ({ ...p, pages: strip(p.pages) }));
  return strip(space.pages);
};
