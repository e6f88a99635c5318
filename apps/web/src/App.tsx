import { lazy, Suspense, type ReactNode } from 'react';
import { Redirect, Route, Switch, useLocation, useSearch } from 'wouter';
import { useQuery } from '@tanstack/react-query';
import { api, type List } from './api.ts';
import { ErrorState, Progress } from './components/states.tsx';
import { Shell } from './components/Shell.tsx';
import { paths } from './paths.ts';
import { useSession } from './session.tsx';
import type { Organization, Space } from './types.ts';
import { OrgHome } from './views/OrgHome.tsx';
import { safeNext, SignIn } from './views/SignIn.tsx';

// Views past the first are loaded when opened: the first view ships only the shell.

// Views past the first are loaded when opened: the first view ships only the shell.
const SpaceView = lazy(() => import('./views/SpaceView.tsx'));
const ChangeRequestsView = lazy(() => import('./views/ChangeRequests.tsx'));
const ChangeRequestView = lazy(() => import('./views/ChangeRequest.tsx'));
const EditView = lazy(() => import('./views/EditView.tsx'));
const SettingsView = lazy(() => import('./views/Settings.tsx'));
const HistoryView = lazy(() => import('./views/History.tsx'));
const SpaceSettings = lazy(() => import('./views/SpaceSettings.tsx'));
const SitesView = lazy(() => import('./views/Sites.tsx'));
const SiteView = lazy(() => import('./views/Site.tsx'));
const OpenApiView = lazy(() => import('./views/OpenApi.tsx'));

export function App() {
  const { user, loading } = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (loading) return <Progress label="Loading your session" />;
  if (!user) {
    if (location === '/sign-in') return <SignIn />;
    return <Redirect to={`/sign-in?next=${encodeURIComponent(location)}`} replace />;
  }
  return (
    <Suspense fallback={<Progress label="Loading" />}>
      <Switch>
        <Route path="/sign-in">
          <Redirect to={safeNext(new URLSearchParams(search).get('next'))} replace />
        </Route>
        <Route path="/">
          <FirstOrganization />
        </Route>
        <Route path="/o/:org">{(p) => <OrgRoute org={p.org}>{<OrgHome org={p.org} />}</OrgRoute>}</Route>
        <Route path="/o/:org/c/:collection">{(p) => <OrgRoute org={p.org}>{<OrgHome org={p.org} collection={p.collection} />}</OrgRoute>}</Route>
        <Route path="/o/:org/settings/:tab">{(p) => <OrgRoute org={p.org}>{<SettingsView org={p.org} tab={p.tab} />}</OrgRoute>}</Route>
        <Route path="/o/:org/s/:space/~/history">{(p) => <SpaceRoute space={p.space}>{(s) => <HistoryView space={s} />}</SpaceRoute>}</Route>
        <Route path="/o/:org/openapi">{(p) => <OrgRoute org={p.org}>{<OpenApiView org={p.org} />}</OrgRoute>}</Route>
        <Route path="/o/:org/sites">{(p) => <OrgRoute org={p.org}>{<SitesView org={p.org} />}</OrgRoute>}</Route>
        <Route path="/o/:org/sites/:site">{(p) => <OrgRoute org={p.org}>{<SiteView org={p.org} siteId={p.site} tab="structure" />}</OrgRoute>}</Route>
        <Route path="/o/:org/sites/:site/:tab">{(p) => <OrgRoute org={p.org}>{<SiteView org={p.org} siteId={p.site} tab={p.tab} />}</OrgRoute>}</Route>
        <Route path="/o/:org/s/:space/~/settings">{(p) => <Redirect to={paths.spaceSettings(p.org, p.space)} replace />}</Route>
        <Route path="/o/:org/s/:space/~/settings/:tab">{(p) => <SpaceRoute space={p.space}>{(s) => <SpaceSettings space={s} tab={p.tab} />}</SpaceRoute>}</Route>
        <Route path="/o/:org/s/:space/~/changes">{(p) => <SpaceRoute space={p.space}>{(s) => <ChangeRequestsView space={s} />}</SpaceRoute>}</Route>
        <Route path="/o/:org/s/:space/~/changes/:number">{(p) => <SpaceRoute space={p.space}>{(s) => <ChangeRequestView space={s} number={p.number} />}</SpaceRoute>}</Route>
        <Route path="/o/:org/s/:space/~/changes/:number/edit/*?">
          {(p) => <SpaceRoute space={p.space}>{(s) => <EditView space={s} number={p.number} path={p['*'] ?? ''} />}</SpaceRoute>}
        </Route>
        <Route path="/o/:org/s/:space">{(p) => <SpaceRoute space={p.space}>{(s) => <SpaceView space={s} path="" />}</SpaceRoute>}</Route>
        <Route path="/s/:space/~/revisions/:revision">{(p) => <SpaceRoute space={p.space}>{(s) => <SpaceView space={s} path="" revision={p.revision} />}</SpaceRoute>}</Route>
        <Route path="/s/:space/*?">{(p) => <SpaceRoute space={p.space}>{(s) => <SpaceView space={s} path={p['*'] ?? ''} />}</SpaceRoute>}</Route>
        <Route>
          <Shell>
            <ErrorState title="Page not found" message="This address does not name a view of Quire." />
          </Shell>
        </Route>
      </Switch>
    </Suspense>
  );
}

/** `/`: the first organization of the user (GitBook's app opens the last one; we keep no such state). */
function FirstOrganization() {
  const orgs = useQuery({ queryKey: ['orgs'], queryFn: () => api.get<List<Organization>>('/orgs', { limit: 100 }) });
  if (orgs.isPending) return <Progress label="Loading organizations" />;
  if (orgs.error) return <ErrorState title="Could not load your organizations" message={orgs.error.message} />;
  const first = orgs.data.items[0];
  if (!first)
    return (
      <Shell>
        <ErrorState title="No organization yet" message="Ask an admin to invite you, or create one with `pnpm quire org create`." />
      </Shell>
    );
  return <Redirect to={paths.org(first.id)} replace />;
}

function OrgRoute({ org, children }: { org: string; children: ReactNode }) {
  return <Shell org={org}>{children}</Shell>;
}

/** A view of a space: the space is read first, its organization gives the shell. */
function SpaceRoute({ space, children }: { space: string; children: (s: Space) => ReactNode }) {
  const q = useQuery({ queryKey: ['space', space], queryFn: () => api.get<Space>(`/spaces/${space}`) });
  if (q.isPending)
    return (
      <Shell>
        <Progress label="Loading the space" />
      </Shell>
    );
  if (q.error)
    return (
      <Shell>
        <ErrorState title="Space not available" message={q.error.message} />
      </Shell>
    );
  return (
    <Shell org={q.data.organization} space={q.data.id}>
      <Suspense fallback={<Progress label="Loading" />}>{children(q.data)}</Suspense>
    </Shell>
  );
}
