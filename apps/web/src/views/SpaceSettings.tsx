import { useState, type FormEvent } from 'react';
import '../admin.css';
import { useLocation } from 'wouter';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { RoleSelect, ROLES, useAction } from '../components/actions.tsx';
import { DangerZone } from '../components/DangerZone.tsx';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { Field, SelectField } from '../components/Field.tsx';
import { InlineForm } from '../components/InlineForm.tsx';
import { ListTable } from '../components/ListTable.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { ErrorState, Progress, QueryState } from '../components/states.tsx';
import { TabNav } from '../components/TabNav.tsx';
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
      <TabNav label="Space settings" tabs={TABS} current={tab} href={(id) => paths.spaceSettings(space.organization, space.id, id)} />
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
        <Field label="Title" bind={[title, setTitle]} maxLength={50} required disabled={!admin} />
        {admin && (
          <button type="submit" className="btn">
            Rename
          </button>
        )}
      </form>
      <div className="stack">
        <SelectField
          label="Visibility"
          value={space.visibility}
          disabled={!admin}
          onChange={(e) => update({ visibility: e.target.value })}
          options={VISIBILITIES.filter(([v]) => v !== 'in-collection' || space.parent)}
        />
        <SelectField
          label="Default level of the organization's members"
          value={level}
          disabled={!admin}
          onChange={(e) => update({ defaultLevel: e.target.value === 'none' ? null : e.target.value })}
          options={LEVELS.filter((l) => l !== 'inherit' || space.parent).map((l) => [l, l === 'none' ? 'no access' : l === 'inherit' ? "the collection's" : l])}
        />
      </div>
      <MutationStatus of={act} />
      {admin && <DangerZone title="Delete this space" action="Delete space" onClick={remove} />}
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

  const inviteUser = () => {
    if (user) act.mutate(() => api.post(`/spaces/${space.id}/permissions`, { role: userRole, users: [user] }).then(() => setUser('')));
  };
  const setTeamGrant = () => {
    if (team) act.mutate(() => api.post(`/spaces/${space.id}/permissions`, { role: teamRole === 'remove' ? null : teamRole, teams: [team] }).then(() => setTeam('')));
  };

  return (
    <section aria-label="Permissions">
      {admin && (
        <>
          <InlineForm submit="Invite member" buttonClass="btn primary" disabled={!user} onSubmit={inviteUser}>
            <SelectField
              label="Member to invite to the space"
              hideLabel
              value={user}
              onChange={(e) => setUser(e.target.value)}
              options={(members.data ?? []).filter((m) => !granted.has(m.user.id)).map((m) => [m.user.id, `${m.user.displayName} (${m.user.email})`] as const)}
            >
              <option value="">Choose a member…</option>
            </SelectField>
            <RoleSelect label="Role of the invited member" value={userRole} onChange={setUserRole} />
          </InlineForm>
          <InlineForm submit="Set team role" disabled={!team} onSubmit={setTeamGrant}>
            <SelectField label="Team" hideLabel value={team} onChange={(e) => setTeam(e.target.value)} options={(teams.data ?? []).map((t) => [t.id, t.title] as const)}>
              <option value="">Choose a team…</option>
            </SelectField>
            <RoleSelect<Role | 'remove'> label="Role of the team" value={teamRole} onChange={setTeamRole} roles={[...ROLES, 'remove']} />
          </InlineForm>
          <p className="muted small">A team's role applies to each of its members; choose “remove” to take it away.</p>
        </>
      )}
      <MutationStatus of={act} />
      <QueryState
        query={grants}
        loading="Loading permissions"
        failed="Could not load the permissions"
        empty={grants.data?.length === 0 && 'No one is invited to this space itself'}
      />
      <ListTable caption="Members invited to the space" columns={['Name', 'Role', admin && 'Remove']} items={grants.data}>
        {(g) => (
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
                <DeleteButton
                  label={`Remove ${g.user.displayName} from the space`}
                  onClick={() => act.mutate(() => api.delete(`/spaces/${space.id}/permissions/users/${g.user.id}`))}
                >
                  Remove
                </DeleteButton>
              </td>
            )}
          </tr>
        )}
      </ListTable>
      {(members.isPending || teams.isPending) && admin && <Progress label="Loading members and teams" />}
    </section>
  );
}
