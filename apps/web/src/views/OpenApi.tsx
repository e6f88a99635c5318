import { useState, type FormEvent } from 'react';
import '../admin.css';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../api.ts';
import { useAction } from '../components/actions.tsx';
import { DeleteButton } from '../components/DeleteButton.tsx';
import { Field } from '../components/Field.tsx';
import { ListTable } from '../components/ListTable.tsx';
import { MutationStatus } from '../components/MutationStatus.tsx';
import { QueryState } from '../components/states.tsx';
import type { OpenApiSpec, OpenApiSpecVersion, Organization } from '../types.ts';

// The organization's OpenAPI specs, as the API keeps them: each by its slug, from a file uploaded
// or a URL fetched, a new version each time its document changes. Pages show their operations
// with the "OpenAPI operation (organization spec)" block.

/** A spec's versions, newest first. */
function Versions({ org, slug }: { org: string; slug: string }) {
  const versions = useQuery({ queryKey: ['openapi', org, slug, 'versions'], queryFn: () => all<OpenApiSpecVersion>(`/orgs/${org}/openapi/${slug}/versions`) });
  return (
    <>
      <QueryState query={versions} loading="Loading versions" failed="Could not load the versions" />
      <ol className="openapi-versions" aria-label={`Versions of ${slug}`}>
        {versions.data?.map((v) => (
          <li key={v.id}>
            <time dateTime={v.createdAt}>{new Date(v.createdAt).toLocaleString()}</time> <code>{v.id}</code>
          </li>
        ))}
      </ol>
    </>
  );
}

export default function OpenApiView({ org }: { org: string }) {
  const specs = useQuery({ queryKey: ['openapi', org], queryFn: () => all<OpenApiSpec>(`/orgs/${org}/openapi`) });
  const organization = useQuery({ queryKey: ['org', org], queryFn: () => api.get<Organization>(`/orgs/${org}`) });
  const canCreate = organization.data?.permissions?.createOpenAPISpec === true;
  const act = useAction(['openapi']);
  const [slug, setSlug] = useState('');
  const [url, setUrl] = useState('');
  const [file, setFile] = useState<File | undefined>();
  const [open, setOpen] = useState<string | undefined>();

  // A new spec, or a new version of one: PUT creates it or adds a version when the document changed.
  const upload = (e: FormEvent) => {
    e.preventDefault();
    const s = slug.trim();
    act.mutate(async () => {
      const source = file ? { text: await file.text() } : { url: url.trim() };
      await api.put<OpenApiSpec>(`/orgs/${org}/openapi/${encodeURIComponent(s)}`, { source });
      setUrl('');
      setFile(undefined);
    });
  };

  return (
    <div className="page">
      <h1>OpenAPI specs</h1>
      {canCreate && (
        <form className="inline-form" onSubmit={upload} aria-label="Add an OpenAPI spec">
          <Field label="Slug" value={slug} onChange={(e) => setSlug(e.target.value)} placeholder="petstore" pattern="[a-z0-9]+(-[a-z0-9]+)*" maxLength={100} required />
          <Field label="Spec file (JSON or YAML)" type="file" accept=".json,.yaml,.yml,application/json,application/yaml" onChange={(e) => setFile(e.target.files?.[0])} />
          <Field
            label="or its URL"
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/openapi.yaml"
            disabled={!!file}
            required={!file}
          />
          <button type="submit" className="btn primary">
            Upload
          </button>
        </form>
      )}
      <MutationStatus of={act} label="Saving the spec" />
      <QueryState query={specs} loading="Loading specs" failed="Could not load the specs" empty={specs.data?.length === 0 && 'No OpenAPI specs yet'} />
      <ListTable caption="OpenAPI specs" columns={['Spec', 'Source', 'Updated', 'Versions', '']} items={specs.data}>
        {(s) => (
          <tr key={s.id}>
            <td>
              <code>{s.slug}</code>
            </td>
            <td>{s.sourceURL ?? 'uploaded file'}</td>
            <td>
              <time dateTime={s.updatedAt}>{new Date(s.updatedAt).toLocaleString()}</time>
            </td>
            <td>
              <button type="button" className="btn small" aria-expanded={open === s.slug} onClick={() => setOpen(open === s.slug ? undefined : s.slug)}>
                {open === s.slug ? 'Hide versions' : 'Versions'}
              </button>
              {open === s.slug && <Versions org={org} slug={s.slug} />}
            </td>
            <td>
              {s.permissions.delete && (
                <DeleteButton
                  label={`Delete ${s.slug}`}
                  ask={`Delete the spec “${s.slug}” and its versions? Pages showing it will say it is missing.`}
                  onClick={() => act.mutate(() => api.delete(`/orgs/${org}/openapi/${s.slug}`))}
                />
              )}
            </td>
          </tr>
        )}
      </ListTable>
    </div>
  );
}
