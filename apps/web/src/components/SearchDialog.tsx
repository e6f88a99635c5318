import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { api, type List } from '../api.ts';
import { Progress } from './states.tsx';

interface SearchSpaceResult {
  id: string;
  title: string;
  pages: { id: string; title: string; path: string; sections?: { id: string; title: string; body: string }[]; urls: { app: string } }[];
}

/** Ctrl/⌘-K: search across the organization; results open the page in the app. */
export function SearchDialog({ org, onClose }: { org: string; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [query, setQuery] = useState('');
  const [debounced, setDebounced] = useState('');
  const [, navigate] = useLocation();
  useEffect(() => {
    const d = ref.current!;
    if (!d.open) d.showModal?.();
  }, []);
  useEffect(() => {
    const t = setTimeout(() => setDebounced(query.trim()), 150);
    return () => clearTimeout(t);
  }, [query]);
  const results = useQuery({
    queryKey: ['search', org, debounced],
    queryFn: () => api.get<List<SearchSpaceResult>>(`/orgs/${org}/search`, { query: debounced, limit: 20 }),
    enabled: debounced.length > 0,
  });
  const open = (url: string) => {
    onClose();
    // urls.app is absolute; the app routes its path.
    navigate(new URL(url, location.origin).pathname);
  };
  const hits = results.data?.items.flatMap((s) => s.pages.map((p) => ({ ...p, space: s.title }))) ?? [];
  return (
    <dialog ref={ref} className="search" aria-label="Search" onClose={onClose} onCancel={onClose}>
      <form method="dialog" onSubmit={(e) => e.preventDefault()}>
        <label>
          <span className="visually-hidden">Search the organization</span>
          <input className="searchbox" type="search" placeholder="Search pages…" value={query} onChange={(e) => setQuery(e.target.value)} autoFocus />
        </label>
        <button type="button" className="btn" onClick={onClose}>
          Close
        </button>
      </form>
      {results.isFetching && <Progress label="Searching" />}
      {results.error && <p role="alert">{results.error.message}</p>}
      <ul className="results" aria-label="Search results">
        {hits.map((h) => (
          <li key={`${h.space}-${h.id}`}>
            <a
              href={new URL(h.urls.app, location.origin).pathname}
              onClick={(e) => {
                e.preventDefault();
                open(h.urls.app);
              }}
            >
              {h.title}
              <small>
                {h.space} · {h.path}
              </small>
            </a>
          </li>
        ))}
        {debounced && results.isSuccess && hits.length === 0 && <li>No results for “{debounced}”</li>}
      </ul>
    </dialog>
  );
}
