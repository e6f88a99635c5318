import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { api, type List } from '../api.ts';
import { unsentPages } from '../offline.ts';
import { paths } from '../paths.ts';
import { useSession } from '../session.tsx';
import { useTheme } from '../theme.ts';
import type { Organization } from '../types.ts';
import { SearchDialog } from './SearchDialog.tsx';
import { Sidebar } from './Sidebar.tsx';

/** The frame of every signed-in view: top bar (organization, search, theme, account) and the library sidebar. */
export function Shell({ org, space, children }: { org?: string; space?: string; children: ReactNode }) {
  const { user, signOut } = useSession();
  const [theme, nextTheme] = useTheme();
  const [searching, setSearching] = useState(false);
  const [, navigate] = useLocation();
  const orgs = useQuery({ queryKey: ['orgs'], queryFn: () => api.get<List<Organization>>('/orgs', { limit: 100 }) });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.metaKey || e.ctrlKey) && e.key.toLowerCase() === 'k' && org) {
        e.preventDefault();
        setSearching(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [org]);

  return (
    <div className="app">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link className="brand" href="/">
          Quire
        </Link>
        {orgs.data && orgs.data.items.length > 0 && (
          <label className="orgswitch">
            <span className="visually-hidden">Organization</span>
            <select value={org ?? ''} onChange={(e) => navigate(paths.org(e.target.value))}>
              {!org && <option value="">Choose an organization</option>}
              {orgs.data.items.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.title}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="tools">
          {org && (
            <button type="button" className="btn" onClick={() => setSearching(true)} aria-keyshortcuts="Control+K Meta+K">
              Search <kbd>Ctrl K</kbd>
            </button>
          )}
          <button type="button" className="btn" onClick={nextTheme} aria-label={`Theme: ${theme}`}>
            {theme === 'dark' ? 'Dark' : theme === 'light' ? 'Light' : 'System'}
          </button>
          {org && (
            <Link className="btn" href={paths.sites(org)}>
              Sites
            </Link>
          )}
          {org && (
            <Link className="btn" href={paths.openApi(org)}>
              OpenAPI
            </Link>
          )}
          {org && (
            <Link className="btn" href={paths.settings(org)}>
              Settings
            </Link>
          )}
          {user && (
            <button
              type="button"
              className="btn"
              onClick={() => askedSignOut(user.id) && void signOut().then(() => navigate('/sign-in'))}
              aria-label={`Sign out ${user.displayName}`}
            >
              Sign out
            </button>
          )}
        </div>
      </header>
      <div className="body">
        {org && <Sidebar org={org} current={space} />}
        <main id="main" tabIndex={-1}>
          {children}
        </main>
      </div>
      {org && searching && <SearchDialog org={org} onClose={() => setSearching(false)} />}
    </div>
  );
}

/** Signing out deletes the member's pages kept on this device: asked first while some hold changes the server does not have. */
function askedSignOut(userId: string) {
  const n = unsentPages(userId);
  return (
    !n || confirm(`${n === 1 ? 'A page you edited has' : `${n} pages you edited have`} changes not sent to Quire yet: signing out deletes them from this device. Sign out anyway?`)
  );
}
