import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { useAction } from '../../components/actions.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { Field } from '../../components/Field.tsx';
import { InlineForm } from '../../components/InlineForm.tsx';
import { MutationStatus } from '../../components/MutationStatus.tsx';
import { QueryState } from '../../components/states.tsx';
import { checkClaim, claimsOf, schemaWith, type Claim, type JsonSchema } from '../../lib/adaptive.ts';
import type { SiteProps } from '../Site.tsx';

/** Adaptive content: on or off, the visitor claims the site knows, and the conditions they give. */
export function Adaptive({ org, site }: SiteProps) {
  const base = `/orgs/${org}/sites/${site.id}`;
  const schema = useQuery({ queryKey: ['adaptive-schema', site.id], queryFn: () => api.get<{ jsonSchema: JsonSchema; updatedAt: string }>(`${base}/adaptive-schema`) });
  const conditions = useQuery({
    queryKey: ['adaptive-conditions', site.id],
    queryFn: () => api.get<{ items: { description: string; condition: string }[] }>(`${base}/adaptive-schema/template-conditions`),
  });
  const act = useAction(['adaptive-schema', 'adaptive-conditions', 'site']);
  const [name, setName] = useState('');
  const [unsigned, setUnsigned] = useState(false);
  const [description, setDescription] = useState('');
  const [invalid, setInvalid] = useState<string>();
  const claims = schema.data ? claimsOf(schema.data.jsonSchema) : [];
  const save = (next: Claim[]) => act.mutate(() => api.put(`${base}/adaptive-schema`, { jsonSchema: schemaWith(next) }));
  const enabled = site.adaptiveContent?.enabled === true;
  const add = () => {
    const claim = { name: name.trim(), unsigned, description: description.trim() };
    const problem = checkClaim(claim, claims);
    setInvalid(problem);
    if (!problem) {
      save([...claims, claim]);
      setName('');
      setDescription('');
    }
  };
  return (
    <section aria-label="Adaptive content">
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={() => act.mutate(() => api.patch(base, { adaptiveContent: { enabled: !enabled } }))} /> Adapt the site to each visitor's
        claims
      </label>
      <h2>Visitor claims</h2>
      <InlineForm submit="Add claim" onSubmit={add}>
        <Field label="Claim name" hideLabel bind={[name, setName]} placeholder="isBetaUser" maxLength={64} required aria-invalid={invalid ? true : undefined} />
        <Field label="Claim description" hideLabel bind={[description, setDescription]} placeholder="What it means" maxLength={200} required />
        <label className="check">
          <input type="checkbox" checked={unsigned} onChange={(e) => setUnsigned(e.target.checked)} /> Unsigned
        </label>
      </InlineForm>
      {invalid && (
        <p role="alert" className="error-text">
          {invalid}
        </p>
      )}
      <MutationStatus of={act} />
      <QueryState query={schema} loading="Loading the schema" failed="Could not load the schema" empty={schema.data && claims.length === 0 && 'No claims yet'} />
      <ul className="plain">
        {claims.map((c) => (
          <li key={`${c.unsigned}-${c.name}`} className="inline">
            <code className="grow">{c.unsigned ? `unsigned.${c.name}` : c.name}</code>
            <span className="muted small">{c.description}</span>
            <DeleteButton label={`Remove claim ${c.name}`} onClick={() => save(claims.filter((x) => x !== c))}>
              Remove
            </DeleteButton>
          </li>
        ))}
      </ul>
      {conditions.data && conditions.data.items.length > 0 && (
        <>
          <h2>Conditions for sections and spaces</h2>
          <ul className="plain">
            {conditions.data.items.map((c) => (
              <li key={c.condition}>
                {c.description}: <code>{c.condition}</code>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
