import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../../api.ts';
import { useAction } from '../../components/actions.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { Field } from '../../components/Field.tsx';
import { InlineForm } from '../../components/InlineForm.tsx';
import { MutationStatus } from '../../components/MutationStatus.tsx';
import { QueryState } from '../../components/states.tsx';
import type { TranslationSettings } from '../../types.ts';

const languagesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((l) => l.trim())
    .filter(Boolean);

/** The organization's translation settings: a title and the languages each translates into. */
export function Translations({ org }: { org: string }) {
  const settings = useQuery({ queryKey: ['translations', org], queryFn: () => all<TranslationSettings>(`/orgs/${org}/translations`) });
  const act = useAction(['translations']);
  const [title, setTitle] = useState('');
  const [languages, setLanguages] = useState('');
  const create = () =>
    act.mutate(() =>
      api.post(`/orgs/${org}/translations`, { title: title.trim(), languages: languagesOf(languages) }).then(() => {
        setTitle('');
        setLanguages('');
      }),
    );
  return (
    <section aria-label="Translations">
      <InlineForm submit="New translation" onSubmit={create}>
        <Field label="Translation title" hideLabel bind={[title, setTitle]} placeholder="Title" maxLength={100} required />
        <Field label="Languages (BCP 47 tags)" hideLabel bind={[languages, setLanguages]} placeholder="fr, de, ja" maxLength={1000} />
      </InlineForm>
      <MutationStatus of={act} />
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
      <Field label={`Languages of ${t.title}`} hideLabel bind={[languages, setLanguages]} disabled={!t.permissions.edit} maxLength={1000} />
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
          <DeleteButton label={`Delete translation ${t.title}`} onClick={() => act.mutate(() => api.delete(`/orgs/${org}/translations/${t.id}`))} />
        </>
      )}
    </li>
  );
}
