import { Link } from 'wouter';
import type { RevisionPage } from '../types.ts';

/** A space's pages as nested links; `current` is marked for assistive technology too. */
export function PageTree({ pages, current, href }: { pages: RevisionPage[]; current?: string; href: (p: RevisionPage) => string }) {
  if (!pages.length) return null;
  return (
    <nav className="tree" aria-label="Page tree">
      <Branch pages={pages} current={current} href={href} />
    </nav>
  );
}

function Branch({ pages, current, href }: { pages: RevisionPage[]; current?: string; href: (p: RevisionPage) => string }) {
  return (
    <ul>
      {pages.map((p) => (
        <li key={p.id}>
          {p.type === 'group' ? (
            <span className="muted small">{p.title}</span>
          ) : (
            <Link href={href(p)} aria-current={p.id === current ? 'page' : undefined}>
              {p.emoji && <span aria-hidden="true">{p.emoji} </span>}
              {p.title}
            </Link>
          )}
          {p.pages && p.pages.length > 0 && <Branch pages={p.pages} current={current} href={href} />}
        </li>
      ))}
    </ul>
  );
}
