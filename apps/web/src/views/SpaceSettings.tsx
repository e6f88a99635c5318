import { useState, type FormEvent } from 'react';
import '../admin.css';
import { Link, useLocation } from 'wouter';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { ActionState, RoleSelect, ROLES, useAction } from '../components/actions.tsx';
import { ErrorState, Progress, QueryState } from '../components/states.tsx';
import { paths } from '../paths.ts';
import type { Member, Role, Space, Team } from '../types.ts';
import type { SpaceVisibility, UserPermission } from '../types.ts';
import { GitSync } from './GitSync.tsx';

const TABS = [
  ['general', 'General'],
  ['permissions', 'Permissions'],
  ['git', 'Git sync'],
] as const;

const VISIBILITIES: [SpaceVisibility, string][] = [
  ['private', 'Private: members with access'],
  ['in-collection', 'Like its collection'],
  ['public', 'Public, indexed by search engines'],
  ['unlisted', 'Public, not indexed'],
  ['share-link', 'Anyone with a share link'],
  ['visitor-auth', 'Visitors signed in by a JWT'],
];

// `inherit` takes the collection's level; "none" (null) gives members no access by default.
const LEVELS = ['inherit', 'none', ...ROLES] as const;
type Level = (typeof LEVELS)[number];

/** A space's settings (its admins): title, visibility, default level, who may do what, Git sync. */
export default function SpaceSettings({ space, tab }: { space: Space; tab: string }) {
  const admin = space.permissions.admin === true;
  return (
    <div className="page">
      <h1>Settings of {space.title}</h1>
      <nav className="tabs" aria-label="Space settings">
        {TABS.map(([id, label]) => (
          <Link key={id} href={paths.spaceSettings(space.organization, space.id, id)} aria-current={tab === id ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {!admin && tab !== 'git' && <p className="notice">Only the space's admins change its settings.</p>}
      {tab === 'general' && <General space={space} admin={admin} />}
      {tab === 'permissions' && <Permissions space={space} admin={admin} />}
      {tab === 'git' && <GitSync space={space} />}
      {!TABS.some(([id]) => id === tab) && <ErrorState title="No such settings page" />}
    </div>
  );
}

function General({ space, admin }: { space: Space; admin: boolean }) {
  const act = useAction(['space', 'spaces']);
  const client = useQueryClient();
  const [, navigate] = useLocation();
  const [title, setTitle] = useState(space.title);
  const level: Level = space.defaultLevel === undefined || space.defaultLevel === null ? 'none' : space.defaultLevel;
  const update = (body: Record<string, unknown>) => act.mutate(() => api.patch(`/spaces/${space.id}`, body));
  const rename = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim() && title.trim() !== space.title) update({ title: title.trim() });
  };
  const remove = () => {
    if (!confirm(`Delete the space “${space.title}”? It can be restored for 7 days.`)) return;
    act.mutate(async () => {
      await api.delete(`/spaces/${space.id}`);
      client.removeQueries({ queryKey: ['space', space.id] });
      navigate(paths.org(space.organization));
    });
  };
  return (
    <section aria-label="General">
      <form className="stack" onSubmit={rename}>
        <label className="field">
          <span>Title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={50} required disabled={!admin} />
        </label>
        {admin && (
          <button type="submit" className="btn">
            Rename
          </button>
        )}
      </form>
      <div className="stack">
        <label className="field">
          <span>Visibility</span>
          <select value={space.visibility} disabled={!admin} onChange={(e) => update({ visibility: e.target.value })}>
            {VISIBILITIES.filter(([v]) => v !== 'in-collection' || space.parent).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>Default level of the organization's members</span>
          <select value={level} disabled={!admin} onChange={(e) => update({ defaultLevel: e.target.value === 'none' ? null : e.target.value })}>
            {LEVELS.filter((l) => l !== 'inherit' || space.parent).map((l) => (
              <option key={l} value={l}>
                {l === 'none' ? 'no access' : l === 'inherit' ? "the collection's" : l}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ActionState action={act} />
      {admin && (
        <div className="danger-zone">
          <h2>Delete this space</h2>
          <button type="button" className="btn danger" onClick={remove}>
            Delete space
          </button>
        </div>
      )}
    </section>
  );
}

function Permissions({ space, admin }: { space: Space; admin: boolean }) {
  const org = space.organization;
  const grants = useQuery({ queryKey: ['space-permissions', space.id], queryFn: () => all<UserPermission>(`/spaces/${space.id}/permissions/users`) });
  const members = useQuery({ queryKey: ['members', org], queryFn: () => all<Member>(`/orgs/${org}/members`), enabled: admin });
  const teams = useQuery({ queryKey: ['teams', org], queryFn: () => all<Team>(`/orgs/${org}/teams`), enabled: admin });
  const act = useAction(['space-permissions', 'space']);
  const [user, setUser] = useState('');
  const [userRole, setUserRole] = useState<Role>('read');
  const [team, setTeam] = useState('');
  const [teamRole, setTeamRole] = useState<Role | 'remove'>('read');
  const granted = new Set(grants.data?.map((g) => g.user.id));

  const inviteUser = (e: FormEvent) => {
    e.preventDefault();
    if (user) act.mutate(() => api.post(`/spaces/${space.id}/permissions`, { role: userRole, users: [user] }).then(() => setUser('')));
  };
  const setTeamGrant = (e: FormEvent) => {
    e.preventDefault();
    if (team) act.mutate(() => api.post(`/spaces/${space.id}/permissions`, { role: teamRole === 'remove' ? null : teamRole, teams: [team] }).then(() => setTeam('')));
  };

  return (
    <section aria-label="Permissions">
      {admin && (
        <>
          <form className="inline" onSubmit={inviteUser}>
            <label>
              <span className="visually-hidden">Member to invite to the space</span>
              <select value={user} onChange={(e) => setUser(e.target.value)}>
                <option value="">Choose a member…</option>
                {members.data
                  ?.filter((m) => !granted.has(m.user.id))
                  .map((m) => (
                    <option key={m.user.id} value={m.user.id}>
                      {m.user.displayName} ({m.user.email})
                    </option>
                  ))}
              </select>
            </label>
            <RoleSelect label="Role of the invited member" value={userRole} onChange={setUserRole} />
            <button type="submit" className="btn primary" disabled={!user}>
              Invite member
            </button>
          </form>
          <form className="inline" onSubmit={setTeamGrant}>
            <label>
              <span className="visually-hidden">Team</span>
              <select value={team} onChange={(e) => setTeam(e.target.value)}>
                <option value="">Choose a team…</option>
                {teams.data?.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.title}
                  </option>
                ))}
              </select>
            </label>
            <RoleSelect<Role | 'remove'> label="Role of the team" value={teamRole} onChange={setTeamRole} roles={[...ROLES, 'remove']} />
            <button type="submit" className="btn" disabled={!team}>
              Set team role
            </button>
          </form>
          <p className="muted small">A team's role applies to each of its members; choose “remove” to take it away.</p>
        </>
      )}
      <ActionState action={act} />
      <QueryState
        query={grants}
        loading="Loading permissions"
        failed="Could not load the permissions"
        empty={grants.data?.length === 0 && 'No one is invited to this space itself'}
      />
      {grants.data && grants.data.length > 0 && (
        <table className="list">
          <caption className="visually-hidden">Members invited to the space</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              {admin && <th scope="col">Remove</th>}
            </tr>
          </thead>
          <tbody>
            {grants.data.map((g) => (
              <tr key={g.user.id}>
                <td>{g.user.displayName}</td>
                <td>
                  {admin ? (
                    <RoleSelect
                      label={`Space role of ${g.user.displayName}`}
                      value={g.permission}
                      onChange={(r) => act.mutate(() => api.patch(`/spaces/${space.id}/permissions/users/${g.user.id}`, { role: r }))}
                    />
                  ) : (
                    g.permission
                  )}
                </td>
                {admin && (
                  <td>
                    <button
                      type="button"
                      className="btn small danger"
                      aria-label={`Remove ${g.user.displayName} from the space`}
                      onClick={() => act.mutate(() => api.delete(`/spaces/${space.id}/permissions/users/${g.user.id}`))}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {(members.isPending || teams.isPending) && admin && <Progress label="Loading members and teams" />}
    </section>
  );
}
