import { useState, type FormEvent } from 'react';
import '../admin.css';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { all, api, type List } from '../api.ts';
import { ActionState, Field, RoleSelect, useAction } from '../components/actions.tsx';
import { QueryState } from '../components/states.tsx';
import type { Member, Role } from '../types.ts';
import type { AuditEntry, Integration, OidcProvider, SamlProvider, TranslationSettings } from '../types.ts';

/** The organization's administration beyond members, teams and tokens (admins). */
export default function AdminSettings({ org, tab }: { org: string; tab: 'sso' | 'translations' | 'integrations' | 'audit' }) {
  if (tab === 'sso')
    return (
      <>
        <Saml org={org} />
        <Oidc org={org} />
      </>
    );
  if (tab === 'translations') return <Translations org={org} />;
  if (tab === 'integrations') return <Integrations org={org} />;
  return <AuditLog org={org} />;
}

function Saml({ org }: { org: string }) {
  const providers = useQuery({ queryKey: ['saml', org], queryFn: () => all<SamlProvider>(`/orgs/${org}/saml`) });
  const act = useAction(['saml']);
  const [form, setForm] = useState({ label: '', ssoURL: '', entityID: '', certificate: '' });
  const [role, setRole] = useState<Role>('read');
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const create = (e: FormEvent) => {
    e.preventDefault();
    const optional = Object.fromEntries(Object.entries(form).filter(([k, v]) => k !== 'label' && v.trim()));
    act.mutate(() =>
      api.post(`/orgs/${org}/saml`, { label: form.label.trim(), ...optional, defaultRole: role }).then(() => setForm({ label: '', ssoURL: '', entityID: '', certificate: '' })),
    );
  };
  return (
    <section aria-labelledby="saml">
      <h2 id="saml">SAML providers</h2>
      <form className="stack" onSubmit={create}>
        <Field label="SAML label" value={form.label} onChange={set('label')} maxLength={30} required />
        <Field label="Sign-in URL of the identity provider" type="url" value={form.ssoURL} onChange={set('ssoURL')} maxLength={2048} />
        <Field label="Entity ID of the identity provider" value={form.entityID} onChange={set('entityID')} maxLength={1024} />
        <label className="field">
          <span>Certificate of the identity provider (PEM)</span>
          <textarea value={form.certificate} onChange={set('certificate')} maxLength={10_000} rows={4} />
        </label>
        <RoleSelect label="Role of new SAML members" value={role} onChange={setRole} />
        <div>
          <button type="submit" className="btn">
            Add SAML provider
          </button>
        </div>
      </form>
      <ActionState action={act} />
      <QueryState query={providers} loading="Loading SAML providers" failed="Could not load the SAML providers" empty={providers.data?.length === 0 && 'No SAML providers'} />
      <ul className="plain">
        {providers.data?.map((p) => (
          <li key={p.id}>
            <div className="inline">
              <strong className="grow">
                {p.label} <span className="status">{p.status}</span>
              </strong>
              <button
                type="button"
                className="btn small danger"
                aria-label={`Delete SAML provider ${p.label}`}
                onClick={() => confirm(`Delete the SAML provider “${p.label}”?`) && act.mutate(() => api.delete(`/orgs/${org}/saml/${p.id}`))}
              >
                Delete
              </button>
            </div>
            <p className="small muted">
              Give your identity provider the ACS URL <code>{p.service.acsURL}</code> and the entity ID <code>{p.service.entityID}</code>.
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Oidc({ org }: { org: string }) {
  const providers = useQuery({ queryKey: ['oidc', org], queryFn: () => all<OidcProvider>(`/orgs/${org}/oidc`) });
  const act = useAction(['oidc']);
  const empty = { label: '', issuer: '', clientId: '', clientSecret: '' };
  const [form, setForm] = useState(empty);
  const [role, setRole] = useState<Role>('read');
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });
  const create = (e: FormEvent) => {
    e.preventDefault();
    act.mutate(() =>
      api
        .post(`/orgs/${org}/oidc`, { label: form.label.trim(), issuer: form.issuer.trim(), clientId: form.clientId.trim(), clientSecret: form.clientSecret, defaultRole: role })
        .finally(() =>
          // The secret leaves the form whatever the answer: it is never shown back.
          setForm((f) => ({ ...f, clientSecret: '' })),
        )
        .then(() => setForm(empty)),
    );
  };
  return (
    <section aria-labelledby="oidc">
      <h2 id="oidc">OpenID Connect providers</h2>
      <form className="stack" onSubmit={create} autoComplete="off">
        <Field label="OIDC label" value={form.label} onChange={set('label')} maxLength={30} required />
        <Field label="Issuer URL" type="url" value={form.issuer} onChange={set('issuer')} maxLength={2048} required />
        <Field label="Client ID" value={form.clientId} onChange={set('clientId')} maxLength={255} required />
        <Field
          label="Client secret (never shown again)"
          type="password"
          value={form.clientSecret}
          onChange={set('clientSecret')}
          maxLength={1024}
          autoComplete="new-password"
          required
        />
        <RoleSelect label="Role of new OIDC members" value={role} onChange={setRole} />
        <div>
          <button type="submit" className="btn">
            Add OIDC provider
          </button>
        </div>
      </form>
      <ActionState action={act} />
      <QueryState query={providers} loading="Loading OIDC providers" failed="Could not load the OIDC providers" empty={providers.data?.length === 0 && 'No OIDC providers'} />
      <ul className="plain">
        {providers.data?.map((p) => (
          <li key={p.id}>
            <div className="inline">
              <strong className="grow">
                {p.label} <span className="muted small">{p.issuer}</span>
              </strong>
              <button
                type="button"
                className="btn small danger"
                aria-label={`Delete OIDC provider ${p.label}`}
                onClick={() => confirm(`Delete the OIDC provider “${p.label}”?`) && act.mutate(() => api.delete(`/orgs/${org}/oidc/${p.id}`))}
              >
                Delete
              </button>
            </div>
            <p className="small muted">
              Register the redirect URI <code>{p.service.redirectURL}</code> for the client <code>{p.clientId}</code>.
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}

const languagesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((l) => l.trim())
    .filter(Boolean);

function Translations({ org }: { org: string }) {
  const settings = useQuery({ queryKey: ['translations', org], queryFn: () => all<TranslationSettings>(`/orgs/${org}/translations`) });
  const act = useAction(['translations']);
  const [title, setTitle] = useState('');
  const [languages, setLanguages] = useState('');
  return (
    <section aria-label="Translations">
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          act.mutate(() =>
            api.post(`/orgs/${org}/translations`, { title: title.trim(), languages: languagesOf(languages) }).then(() => {
              setTitle('');
              setLanguages('');
            }),
          );
        }}
      >
        <label>
          <span className="visually-hidden">Translation title</span>
          <input value={title} onChange={(e) => setTitle(e.target.value)} placeholder="Title" maxLength={100} required />
        </label>
        <label>
          <span className="visually-hidden">Languages (BCP 47 tags)</span>
          <input value={languages} onChange={(e) => setLanguages(e.target.value)} placeholder="fr, de, ja" maxLength={1000} />
        </label>
        <button type="submit" className="btn">
          New translation
        </button>
      </form>
      <ActionState action={act} />
      <QueryState query={settings} loading="Loading translations" failed="Could not load the translations" empty={settings.data?.length === 0 && 'No translation settings'} />
      <ul className="plain">
        {settings.data?.map((t) => (
          <TranslationRow key={t.id} org={org} t={t} act={act} />
        ))}
      </ul>
    </section>
  );
}

function TranslationRow({ org, t, act }: { org: string; t: TranslationSettings; act: ReturnType<typeof useAction> }) {
  const [languages, setLanguages] = useState(t.languages.join(', '));
  return (
    <li className="inline">
      <strong className="grow">{t.title}</strong>
      <label>
        <span className="visually-hidden">Languages of {t.title}</span>
        <input value={languages} onChange={(e) => setLanguages(e.target.value)} disabled={!t.permissions.edit} maxLength={1000} />
      </label>
      {t.permissions.edit && (
        <>
          <button
            type="button"
            className="btn small"
            aria-label={`Save languages of ${t.title}`}
            onClick={() => act.mutate(() => api.put(`/orgs/${org}/translations/${t.id}`, { title: t.title, languages: languagesOf(languages) }))}
          >
            Save
          </button>
          <button
            type="button"
            className="btn small danger"
            aria-label={`Delete translation ${t.title}`}
            onClick={() => act.mutate(() => api.delete(`/orgs/${org}/translations/${t.id}`))}
          >
            Delete
          </button>
        </>
      )}
    </li>
  );
}

function Integrations({ org }: { org: string }) {
  const [search, setSearch] = useState('');
  const [asked, setAsked] = useState('');
  const list = useQuery({
    queryKey: ['integrations', org, asked],
    queryFn: () => api.get<List<Integration>>('/integrations', { owner: org, limit: 100, ...(asked ? { search: asked } : {}) }),
  });
  return (
    <section aria-label="Integrations">
      <form
        className="inline"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(search.trim());
        }}
      >
        <label>
          <span className="visually-hidden">Search integrations</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Name" maxLength={100} />
        </label>
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      <p className="muted small">
        Integrations are published with the API (`POST /v1/integrations/{'{name}'}`); installing one on the organization, a space or a site is not in the API yet.
      </p>
      <QueryState query={list} loading="Loading integrations" failed="Could not load the integrations" empty={list.data?.items.length === 0 && 'No integrations'} />
      <ul className="cards">
        {list.data?.items.map((i) => (
          <li key={i.name} className="card">
            <strong>
              {i.title} {i.verified && <span className="status">verified</span>}
            </strong>
            <span className="small muted">{i.name}</span>
            <span>{i.description}</span>
            {i.categories.length > 0 && <span className="small muted">{i.categories.join(', ')}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `datetime-local` (the browser's time zone) as the API's ISO timestamp. */
const isoOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

function AuditLog({ org }: { org: string }) {
  const members = useQuery({ queryKey: ['members', org], queryFn: () => all<Member>(`/orgs/${org}/members`) });
  const [filters, setFilters] = useState({ actor: '', action: '', from: '', to: '' });
  const [asked, setAsked] = useState(filters);
  const log = useInfiniteQuery({
    queryKey: ['audit', org, asked],
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      api.get<List<AuditEntry>>(`/orgs/${org}/audit-log`, {
        limit: 50,
        page: pageParam,
        actor: asked.actor || undefined,
        action: asked.action.trim() || undefined,
        from: isoOf(asked.from),
        to: isoOf(asked.to),
      }),
    getNextPageParam: (last) => last.next?.page,
  });
  const names = new Map(members.data?.map((m) => [m.user.id, m.user.displayName]));
  const entries = log.data?.pages.flatMap((p) => p.items) ?? [];
  const set = (k: keyof typeof filters) => (e: { target: { value: string } }) => setFilters({ ...filters, [k]: e.target.value });
  return (
    <section aria-label="Audit log">
      <form
        className="inline wrap"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(filters);
        }}
      >
        <label className="field">
          <span>Who</span>
          <select value={filters.actor} onChange={set('actor')}>
            <option value="">Anyone</option>
            {members.data?.map((m) => (
              <option key={m.user.id} value={m.user.id}>
                {m.user.displayName}
              </option>
            ))}
          </select>
        </label>
        <Field label="Action" value={filters.action} onChange={set('action')} placeholder="member.role_changed" maxLength={128} />
        <Field label="From" type="datetime-local" value={filters.from} onChange={set('from')} />
        <Field label="Until" type="datetime-local" value={filters.to} onChange={set('to')} />
        <button type="submit" className="btn">
          Filter
        </button>
      </form>
      <QueryState query={log} loading="Loading the audit log" failed="Could not load the audit log" empty={log.data && entries.length === 0 && 'No entries'} />
      {entries.length > 0 && (
        <table className="list">
          <caption className="visually-hidden">Audit log, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <td>
                  <time dateTime={e.createdAt}>{new Date(e.createdAt).toLocaleString()}</time>
                </td>
                <td>{e.actor ? (names.get(e.actor) ?? e.actor) : 'anonymous'}</td>
                <td>
                  <code>{e.action}</code>
                </td>
                <td>{e.target ? `${e.target.type} ${e.target.id}` : ''}</td>
                <td>{e.ip ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {log.hasNextPage && (
        <button type="button" className="btn" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
          {log.isFetchingNextPage ? 'Loading…' : 'Older entries'}
        </button>
      )}
    </section>
  );
}
