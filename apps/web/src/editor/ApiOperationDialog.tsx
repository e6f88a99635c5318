import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import '../admin.css';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { QueryState } from '../components/states.tsx';
import { specOperations } from '@quire/document/openapi';
import type { OpenApiSpec, OpenApiSpecContent } from '../types.ts';

// "Insert API operation": one of the organization's specs, one of its operations (filtered by
// method, path or summary), drawn as the published page will show it, and the block inserted.

export interface ApiOperationData {
  ref: { kind: 'openapi'; spec: string };
  path: string;
  method: string;
}

// The reader's renderer (with YAML and the Swagger upgrader) loads once an operation is chosen.
const Preview = lazy(() => import('./ApiOperationPreview.tsx'));

export function ApiOperationDialog({ org, onInsert, onClose }: { org: string; onInsert: (data: ApiOperationData) => void; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [slug, setSlug] = useState('');
  const [filter, setFilter] = useState('');
  const [chosen, setChosen] = useState<string>('');
  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal?.();
  }, []);
  const specs = useQuery({ queryKey: ['openapi', org], queryFn: () => all<OpenApiSpec>(`/orgs/${org}/openapi`) });
  const content = useQuery({
    queryKey: ['openapi', org, slug, 'latest'],
    queryFn: () => api.get<OpenApiSpecContent>(`/orgs/${org}/openapi/${encodeURIComponent(slug)}/versions/latest/content`),
    enabled: slug !== '',
  });
  const operations = content.data ? specOperations(Object.values(content.data.filesystem)[0]) : [];
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const shown = operations.filter((op) => words.every((w) => `${op.method} ${op.path} ${op.summary}`.toLowerCase().includes(w)));
  const op = operations.find((o) => `${o.method} ${o.path}` === chosen);

  return (
    <dialog ref={ref} className="api-operation" aria-label="Insert API operation" onClose={onClose} onCancel={onClose}>
      <form method="dialog" onSubmit={(e) => (e.preventDefault(), op && onInsert({ ref: { kind: 'openapi', spec: slug }, path: op.path, method: op.method }))}>
        <h2>Insert API operation</h2>
        <QueryState query={specs} loading="Loading specs" failed="Could not load the specs" empty={specs.data?.length === 0 && 'The organization has no OpenAPI specs yet'} />
        <label className="field">
          <span>Spec</span>
          <select aria-label="Spec" value={slug} onChange={(e) => (setSlug(e.target.value), setChosen(''))}>
            <option value="">Choose a spec</option>
            {specs.data?.map((s) => (
              <option key={s.id} value={s.slug}>
                {s.slug}
              </option>
            ))}
          </select>
        </label>
        <QueryState query={content} loading="Reading the spec" failed="Could not read the spec" />
        {slug && content.data && (
          <>
            <label className="field">
              <span>Filter operations</span>
              <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="GET /pets" />
            </label>
            <label className="field">
              <span>Operation</span>
              <select aria-label="Operation" value={chosen} onChange={(e) => setChosen(e.target.value)} size={Math.min(10, Math.max(2, shown.length))}>
                {shown.map((o) => (
                  <option key={`${o.method} ${o.path}`} value={`${o.method} ${o.path}`}>
                    {o.method.toUpperCase()} {o.path}
                    {o.summary ? ` — ${o.summary}` : ''}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
        {op && content.data && (
          <Suspense fallback={<p className="muted">Drawing the operation…</p>}>
            <Preview raw={Object.values(content.data.filesystem)[0]} op={op} />
          </Suspense>
        )}
        <div className="actions">
          <button type="submit" className="btn primary" disabled={!op}>
            Insert
          </button>
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  );
}
