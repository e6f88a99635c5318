import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../../api.ts';
import { RoleSelect, useAction } from '../../components/actions.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { Field, TextAreaField, useFields } from '../../components/Field.tsx';
import { MutationStatus } from '../../components/MutationStatus.tsx';
import { QueryState } from '../../components/states.tsx';
import type { OidcProvider, Role, SamlProvider } from '../../types.ts';

/** Single sign-on: the organization's SAML and OpenID Connect identity providers. */
export function Sso({ org }: { org: string }) {
  return (
    <>
      <Saml org={org} />
      <Oidc org={org} />
    </>
  );
}

function Saml({ org }: { org: string }) {
  const empty = { label: '', ssoURL: '', entityID: '', certificate: '' };
  const [form, set, setForm] = useFields(empty);
  const [role, setRole] = useState<Role>('read');
  const add = () => {
    const optional = Object.fromEntries(Object.entries(form).filter(([k, v]) => k !== 'label' && v.trim()));
    return api.post(`/orgs/${org}/saml`, { label: form.label.trim(), ...optional, defaultRole: role }).then(() => setForm(empty));
  };
  return (
    <Providers<SamlProvider>
      org={org}
      kind="SAML"
      title="SAML providers"
      add={add}
      detail={(p) => <span className="status">{p.status}</span>}
      note={(p) => (
        <>
          Give your identity provider the ACS URL <code>{p.service.acsURL}</code> and the entity ID <code>{p.service.entityID}</code>.
        </>
      )}
    >
      <Field label="SAML label" value={form.label} onChange={set('label')} maxLength={30} required />
      <Field label="Sign-in URL of the identity provider" type="url" value={form.ssoURL} onChange={set('ssoURL')} maxLength={2048} />
      <Field label="Entity ID of the identity provider" value={form.entityID} onChange={set('entityID')} maxLength={1024} />
      <TextAreaField label="Certificate of the identity provider (PEM)" value={form.certificate} onChange={set('certificate')} maxLength={10_000} rows={4} />
      <RoleSelect label="Role of new SAML members" value={role} onChange={setRole} />
    </Providers>
  );
}

function Oidc({ org }: { org: string }) {
  const empty = { label: '', issuer: '', clientId: '', clientSecret: '' };
  const [form, set, setForm] = useFields(empty);
  const [role, setRole] = useState<Role>('read');
  const add = () =>
    api
      .post(`/orgs/${org}/oidc`, { label: form.label.trim(), issuer: form.issuer.trim(), clientId: form.clientId.trim(), clientSecret: form.clientSecret, defaultRole: role })
      .finally(() =>
        // The secret leaves the form whatever the answer: it is never shown back.
        setForm((f) => ({ ...f, clientSecret: '' })),
      )
      .then(() => setForm(empty));
  return (
    <Providers<OidcProvider>
      org={org}
      kind="OIDC"
      autoComplete="off"
      title="OpenID Connect providers"
      add={add}
      detail={(p) => <span className="muted small">{p.issuer}</span>}
      note={(p) => (
        <>
          Register the redirect URI <code>{p.service.redirectURL}</code> for the client <code>{p.clientId}</code>.
        </>
      )}
    >
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
    </Providers>
  );
}

/**
 * One kind of identity provider: the form that adds one (its fields the children), then each
 * provider with what its side must be told, and its delete button.
 */
function Providers<P extends { id: string; label: string }>({
  org,
  kind,
  title,
  add,
  autoComplete,
  detail,
  note,
  children,
}: {
  org: string;
  kind: 'SAML' | 'OIDC';
  title: string;
  add: () => Promise<unknown>;
  autoComplete?: string;
  detail: (p: P) => ReactNode;
  note: (p: P) => ReactNode;
  children: ReactNode;
}) {
  const id = kind.toLowerCase();
  const path = `/orgs/${org}/${id}`;
  const providers = useQuery({ queryKey: [id, path], queryFn: () => all<P>(path) });
  const act = useAction([id]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    act.mutate(add);
  };
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <form className="stack" onSubmit={submit} autoComplete={autoComplete}>
        {children}
        <div>
          <button type="submit" className="btn">
            {`Add ${kind} provider`}
          </button>
        </div>
      </form>
      <MutationStatus of={act} />
      <QueryState
        query={providers}
        loading={`Loading ${kind} providers`}
        failed={`Could not load the ${kind} providers`}
        empty={providers.data?.length === 0 && `No ${kind} providers`}
      />
      <ul className="plain">
        {providers.data?.map((p) => (
          <li key={p.id}>
            <div className="inline">
              <strong className="grow">
                {p.label} {detail(p)}
              </strong>
              <DeleteButton
                label={`Delete ${kind} provider ${p.label}`}
                ask={`Delete the ${kind} provider “${p.label}”?`}
                onClick={() => act.mutate(() => api.delete(`${path}/${p.id}`))}
              />
            </div>
            <p className="small muted">{note(p)}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
