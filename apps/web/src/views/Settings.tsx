import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { RoleSelect, useAction } from '../components/actions.tsx';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { Field, SelectField } from '../components/Field.tsx';
import { InlineForm } from '../components/InlineForm.tsx';
import { ListTable } from '../components/ListTable.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { EmptyState, ErrorState, Progress, QueryState } from '../components/states.tsx';
import { TabNav } from '../components/TabNav.tsx';
import { paths } from '../paths.ts';
import { useSession } from '../session.tsx';
import type { Member, Role, Team, Token } from '../types.ts';

const TABS = [
  ['members', 'Members'],
  ['teams', 'Teams'],
  ['tokens', 'API tokens'],
  ['sso', 'Single sign-on'],
  ['translations', 'Translations'],
  ['integrations', 'Integrations'],
  ['audit', 'Audit log'],
] as const;

export type SettingsTab = (typeof TABS)[number][0];

// The organization's administration past members, teams and tokens, loaded when opened.
const AdminSettings = lazy(() => import('./AdminSettings.tsx'));

/** Administration: members with roles and invites, teams, the caller's API tokens, SSO, translations, integrations, the audit log. */
export default function SettingsView({ org, tab }: { org: string; tab: string }) {
  return (
    <div className="page">
      <h1>Settings</h1>
      <TabNav label="Settings" tabs={TABS} current={tab} href={(id) => paths.settings(org, id)} />
      {tab === 'members' && <Members org={org} />}
      {tab === 'teams' && <Teams org={org} />}
      {tab === 'tokens' && <Tokens />}
      {(tab === 'sso' || tab === 'translations' || tab === 'integrations' || tab === 'audit') && (
        <Suspense fallback={<Progress label="Loading" />}>
          <AdminSettings org={org} tab={tab} />
        </Suspense>
      )}
      {!TABS.some(([id]) => id === tab) && <ErrorState title="No such settings page" />}
    </div>
  );
}

function Members({ org }: { org: string }) {
  const { user } = useSession();
  const members = useQuery({ queryKey: ['members', org], queryFn: () => all<Member>(`/orgs/${org}/members`) });
  const act = useAction(['members']);
  const [emails, setEmails] = useState('');
  const [role, setRole] = useState<Role>('read');
  const me = members.data?.find((m) => m.user.id === user?.id);
  const admin = me?.role === 'admin';
  if (members.isPending) return <Progress label="Loading members" />;
  if (members.error) return <ErrorState title="Could not load members" message={members.error.message} />;
  const invite = () => {
    const list = emails.split(/[\s,]+/).filter(Boolean);
    if (list.length) act.mutate(() => api.post(`/orgs/${org}/invites`, { emails: list, role }).then(() => setEmails('')));
  };
  return (
    <section aria-label="Members">
      {admin && (
        <InlineForm submit="Invite" buttonClass="btn primary" onSubmit={invite}>
          <Field label="Emails to invite" hideLabel bind={[emails, setEmails]} placeholder="ada@example.com, bob@example.com" />
          <RoleSelect label="Role of the invited" value={role} onChange={setRole} />
        </InlineForm>
      )}
      <MutationStatus of={act} />
      <ListTable caption="Members" columns={['Name', 'Email', 'Role', admin && 'Remove']} items={members.data}>
        {(m) => (
          <tr key={m.id}>
            <td>{m.user.displayName}</td>
            <td>{m.user.email}</td>
            <td>
              {admin && m.user.id !== user?.id ? (
                <RoleSelect
                  label={`Role of ${m.user.displayName}`}
                  value={m.role ?? 'read'}
                  onChange={(r) => act.mutate(() => api.patch(`/orgs/${org}/members/${m.user.id}`, { role: r }))}
                />
              ) : (
                m.role
              )}
            </td>
            {admin && (
              <td>
                {m.user.id !== user?.id && (
                  <DeleteButton
                    label={`Remove ${m.user.displayName}`}
                    ask={`Remove ${m.user.displayName} from the organization?`}
                    onClick={() => act.mutate(() => api.delete(`/orgs/${org}/members/${m.user.id}`))}
                  >
                    Remove
                  </DeleteButton>
                )}
              </td>
            )}
          </tr>
        )}
      </ListTable>
    </section>
  );
}

function Teams({ org }: { org: string }) {
  const teams = useQuery({ queryKey: ['teams', org], queryFn: () => all<Team>(`/orgs/${org}/teams`) });
  const act = useAction(['teams']);
  const [title, setTitle] = useState('');
  return (
    <section aria-label="Teams">
      <InlineForm submit="New team" onSubmit={() => title.trim() && act.mutate(() => api.put(`/orgs/${org}/teams`, { title: title.trim() }).then(() => setTitle('')))}>
        <Field label="New team name" hideLabel bind={[title, setTitle]} placeholder="Team name" maxLength={64} />
      </InlineForm>
      <MutationStatus of={act} />
      <QueryState query={teams} loading="Loading teams" failed="Could not load teams" empty={teams.data?.length === 0 && 'No teams yet'} />
      <List>
        {teams.data?.map((t) => (
          <li key={t.id}>
            {t.title} <span className="muted small">({t.members} members)</span>{' '}
            <DeleteButton label={`Delete team ${t.title}`} onClick={() => act.mutate(() => api.delete(`/orgs/${org}/teams/${t.id}`))} />
          </li>
        ))}
      </List>
    </section>
  );
}

const SCOPES = [
  ['write', 'Read and write'],
  ['read', 'Read only'],
] as const;

function Tokens() {
  const tokens = useQuery({ queryKey: ['tokens'], queryFn: () => all<Token>('/user/tokens') });
  const act = useAction(['tokens']);
  const [label, setLabel] = useState('');
  const [scope, setScope] = useState<'write' | 'read'>('write');
  const [created, setCreated] = useState<Token>();
  const create = () => {
    if (label.trim())
      act.mutate(() =>
        api.post<Token>('/user/tokens', { label: label.trim(), scope }).then((t) => {
          setCreated(t);
          setLabel('');
        }),
      );
  };
  return (
    <section aria-label="API tokens">
      <InlineForm submit="Create token" onSubmit={create}>
        <Field label="Token label" hideLabel bind={[label, setLabel]} placeholder="What is it for?" maxLength={100} />
        <SelectField label="Token scope" hideLabel value={scope} onChange={(e) => setScope(e.target.value as 'write' | 'read')} options={SCOPES} />
      </InlineForm>
      <MutationStatus of={act} />
      {created?.token && (
        <p className="notice" role="status">
          Copy the token “{created.label}” now, it is not shown again: <code>{created.token}</code>
        </p>
      )}
      {tokens.isPending && <Progress label="Loading tokens" />}
      {tokens.data?.length === 0 && <EmptyState title="No API tokens" />}
      <List>
        {tokens.data?.map((t) => (
          <li key={t.id}>
            {t.label} <span className="muted small">{t.scope}</span>{' '}
            <DeleteButton label={`Revoke token ${t.label}`} onClick={() => act.mutate(() => api.delete(`/user/tokens/${t.id}`))}>
              Revoke
            </DeleteButton>
          </li>
        ))}
      </List>
    </section>
  );
}

const List = ({ children }: { children: ReactNode }) => <ul className="plain">{children}</ul>;
