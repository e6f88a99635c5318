import { Link } from 'wouter';

/** A view's tabs, each a link, the open one marked as the current page. */
export function TabNav<T extends string>({ label, tabs, current, href }: { label: string; tabs: readonly (readonly [T, string])[]; current: string; href: (tab: T) => string }) {
  return (
    <nav className="tabs" aria-label={label}>
      {tabs.map(([id, text]) => (
        <Link key={id} href={href(id)} aria-current={current === id ? 'page' : undefined}>
          {text}
        </Link>
      ))}
    </nav>
  );
}
