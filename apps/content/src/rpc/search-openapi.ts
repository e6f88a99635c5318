import { fromMarkdown, resolveRefs, type ResolveLink } from '@quire/document';
import { openApiBlocks, type OpenApiBlock } from '@quire/document/openapi';
import type { SearchPage } from '@quire/proto/space-content';
import { LRUCache } from 'lru-cache';
import { matchesOperation, operationTerms, searchableOperations, type SearchableOperation } from '../domain/openapi-search.ts';
import type { TreeFile } from '../domain/tree.ts';
import type { OpenApiPageRow } from '../store/search.ts';
import type { RevisionDeps } from './revision-access.ts';

// The API operations a search finds on the pages of the spaces searched: each OpenAPI block's
// operation, read from its spec (a file of the space's revision, or the organization's spec at
// its latest version), matched by its path, summary and parameter names. A spec at a URL is not
// fetched to answer a search: it is the organization's spec fetched from that URL (its latest
// version, as stored), and without one its block is found by its method and path, as the page's text.

/** Specs' operations kept, by what names a spec's text (a blob, a version): immutable, so kept while there is room. */
const SPECS_KEPT = 64;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/** Destinations naming a file of the revision: `/files/<id>`, its id, or its name as Git Sync writes it (`src="api.yaml"`). */
function fileResolver(files: TreeFile[]): ResolveLink {
  const byId = new Map(files.map((f) => [f.id, f]));
  const byName = new Map(files.map((f) => [f.name, f]));
  return (url) => {
    if (SCHEME.test(url)) return undefined;
    const id = /^\/files\/([^/?#]+)$/.exec(url)?.[1] ?? url;
    const file = byId.get(decodeURIComponent(id)) ?? byName.get(decodeURIComponent(url.split(/[?#]/)[0]!.split('/').pop() ?? ''));
    return file ? { kind: 'file', file: file.id } : undefined;
  };
}

export function openApiSearch(deps: RevisionDeps) {
  const kept = new LRUCache<string, Promise<SearchableOperation[]>>({ max: SPECS_KEPT });
  const once = (key: string, read: () => Promise<string | undefined>) => {
    let p = kept.get(key);
    if (!p) {
      p = read().then((text) => (text === undefined ? [] : searchableOperations(text)));
      kept.set(key, p);
      p.catch(() => kept.delete(key));
    }
    return p;
  };

  async function operationsOf(block: OpenApiBlock, row: OpenApiPageRow, files: TreeFile[]): Promise<SearchableOperation[]> {
    const ref = block.data.ref;
    if (ref.kind === 'openapi' || ref.kind === 'url') {
      const spec = ref.kind === 'openapi' ? await deps.store.openApi.get(row.organizationId, ref.spec) : await deps.store.openApi.byUrl(row.organizationId, ref.url);
      const version = spec?.lastVersionId;
      if (!spec || !version) return [];
      return once(`version:${version}`, async () => (await deps.store.openApi.content(spec.id, version))?.json);
    }
    const file = ref.kind === 'file' ? files.find((f) => f.id === ref.file) : undefined;
    if (!file) return [];
    return once(`blob:${file.blob}`, async () => (await deps.blobs.get(file.blob))?.toString('utf8'));
  }

  /**
   * The pages of the spaces showing operations the query matches, each with a section per
   * operation found; `fixed` unless an operation was read from an organization's spec or a URL
   * (a new version, or a spec saved from that URL, may answer otherwise) or a spec could not be read.
   */
  return async function findOperations(spaceIds: string[], query: string): Promise<{ pages: SearchPage[]; fixed: boolean }> {
    const terms = operationTerms(query);
    if (!terms.length || !spaceIds.length) return { pages: [], fixed: true };
    let fixed = true;
    const rows = await deps.store.search.openApiPages(spaceIds);
    const trees = new Map<string, Promise<TreeFile[]>>();
    const filesOf = (revisionId: string) => {
      let files = trees.get(revisionId);
      if (!files) trees.set(revisionId, (files = deps.store.revisions.getRevision(revisionId).then((r) => r?.tree.files ?? [])));
      return files;
    };
    const found = await Promise.all(
      rows.map(async (row): Promise<SearchPage | undefined> => {
        const files = await filesOf(row.revisionId);
        const document = resolveRefs(row.document ?? fromMarkdown(row.markdown), fileResolver(files));
        const sections: SearchPage['sections'] = [];
        for (const block of openApiBlocks(document)) {
          const method = block.data.method.toUpperCase();
          if (block.data.ref.kind !== 'file') fixed = false;
          // A spec that cannot be read now leaves its page to the text search, never fails it.
          const operations = await operationsOf(block, row, files).catch((): SearchableOperation[] => {
            fixed = false;
            return [];
          });
          const op = operations.find((o) => o.method === method && o.path === block.data.path);
          if (op && matchesOperation(op, terms))
            sections.push({
              id: '',
              title: `${op.method} ${op.path}`,
              body: [op.summary, op.parameters.length ? `Parameters: ${op.parameters.join(', ')}` : ''].filter(Boolean).join('\n'),
            });
        }
        return sections.length ? { spaceId: row.spaceId, pageId: row.pageId, title: row.title, path: row.path, sections } : undefined;
      }),
    );
    return { pages: found.filter((p): p is SearchPage => p !== undefined), fixed };
  };
}
