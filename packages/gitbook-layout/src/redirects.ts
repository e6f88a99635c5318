import YAML from 'yaml';
import type { SpacePage } from './exporter.ts';
import type { DocsConfig } from './importer.ts';
import { joinPath, PAGE_LINK, relativePath, splitTarget } from './paths.ts';

// `.gitbook.yaml`'s redirects (an old path of the published docs -> a file): read into redirects
// to pages, written back as GitBook reads them.

/** The page of a path as GitBook reads links and redirects: the file, its folder's README.md, or the file with `.md` left off. */
export const pageOf = (pageIds: Map<string, string>, path: string) => pageIds.get(path) ?? pageIds.get(joinPath(path, 'README.md')) ?? pageIds.get(`${path}.md`);

/**
 * The page (and anchor) a redirect leads to: its target's page, else, when the target is itself
 * an old path another redirect moved on (`a: b.md`, `b: c.md`), where that one leads. A target
 * that is no page of the space (an unlisted or missing file) leads nowhere.
 */
export function redirectTarget(to: string, config: Pick<DocsConfig, 'root' | 'redirects'>, pageIds: Map<string, string>): { page: string; anchor: string } | undefined {
  const seen = new Set<string>();
  let target = to;
  for (;;) {
    const { path, rest } = splitTarget(target);
    const page = pageOf(pageIds, path);
    if (page) return { page, anchor: rest.startsWith('#') ? rest.slice(1) : '' };
    const old = relativePath(config.root, path)
      .replace(/(^|\/)readme\.md$/i, '')
      .replace(/\.md$/i, '');
    const next = config.redirects.get(old);
    if (next === undefined || seen.has(old)) return undefined;
    seen.add(old);
    target = next;
  }
}

/**
 * The file a visit of a page leads to: its own; for a page without one (a group, a folder), its
 * first page's; for a link to a page of the space, that page's.
 */
export function pageFile(pages: SpacePage[], files: ReadonlyMap<string, string>): (id: string) => string | undefined {
  const byId = new Map<string, SpacePage>();
  const index = (list: SpacePage[]): void => list.forEach((p) => (byId.set(p.id, p), index(p.pages)));
  index(pages);
  const fileOf = (id: string, seen: Set<string>): string | undefined => {
    const p = byId.get(id);
    if (!p || seen.has(id)) return undefined;
    seen.add(id);
    const own = files.get(id);
    if (own) return own;
    const linked = p.type === 'link' ? PAGE_LINK.exec(splitTarget(p.href).path)?.[1] : undefined;
    if (linked) return fileOf(linked, seen);
    for (const child of p.pages) {
      const found = fileOf(child.id, seen);
      if (found) return found;
    }
    return undefined;
  };
  return (id) => fileOf(id, new Set());
}

/** The `redirects:` block of a new `.gitbook.yaml`: every redirect whose page still leads to a file, paths from the docs root. */
export function redirectsYaml(redirects: readonly { path: string; pageId: string; anchor: string }[], fileOf: (id: string) => string | undefined, root: string): string {
  const entries = redirects.flatMap((r) => {
    const to = fileOf(r.pageId);
    return to ? [[r.path, `${relativePath(root, to)}${r.anchor ? `#${r.anchor}` : ''}`] as const] : [];
  });
  return entries.length ? `\n${YAML.stringify({ redirects: Object.fromEntries(entries) })}` : '';
}
