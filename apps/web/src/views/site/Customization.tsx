import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api.ts';
import { useAction } from '../../components/actions.tsx';
import { Field, SelectField } from '../../components/Field.tsx';
import { MutationStatus } from '../../components/MutationStatus.tsx';
import { ErrorState, Progress } from '../../components/states.tsx';
import type { SiteCustomization } from '../../types.ts';
import type { SiteProps } from '../Site.tsx';

const THEMES = ['clean', 'muted', 'bold', 'gradient'] as const;

/** The site's look: its title, accent colour (light and dark), theme and default mode. */
export function Customization({ org, site }: SiteProps) {
  const path = `/orgs/${org}/sites/${site.id}/customization`;
  const current = useQuery({ queryKey: ['customization', site.id], queryFn: () => api.get<SiteCustomization>(path) });
  if (current.isPending) return <Progress label="Loading the customization" />;
  if (current.error) return <ErrorState title="Could not load the customization" message={current.error.message} />;
  return <CustomizationForm path={path} current={current.data} />;
}

function CustomizationForm({ path, current }: { path: string; current: SiteCustomization }) {
  const act = useAction(['customization']);
  const [title, setTitle] = useState(current.title ?? '');
  const [light, setLight] = useState(current.styling.primaryColor.light);
  const [dark, setDark] = useState(current.styling.primaryColor.dark);
  const [theme, setTheme] = useState(current.styling.theme);
  const [mode, setMode] = useState(current.themes.default);
  const [toggeable, setToggeable] = useState(current.themes.toggeable);
  const save = (e: FormEvent) => {
    e.preventDefault();
    // A setting given replaces that setting whole: styling goes back with its other fields as read.
    act.mutate(() =>
      api.patch(path, {
        ...(title.trim() ? { title: title.trim() } : {}),
        styling: { ...current.styling, theme, primaryColor: { light, dark } },
        themes: { default: mode, toggeable },
      }),
    );
  };
  return (
    <form className="stack" aria-label="Customization" onSubmit={save}>
      <Field label="Title shown on the site" bind={[title, setTitle]} minLength={2} maxLength={128} />
      <div className="inline">
        <Field label="Accent colour (light mode)" type="color" bind={[light, setLight]} />
        <Field label="Accent colour (dark mode)" type="color" bind={[dark, setDark]} />
      </div>
      <SelectField label="Theme" value={theme} onChange={(e) => setTheme(e.target.value as (typeof THEMES)[number])} options={THEMES} />
      <SelectField label="Default mode" value={mode} onChange={(e) => setMode(e.target.value as 'light' | 'dark')} options={['light', 'dark']} />
      <label className="check">
        <input type="checkbox" checked={toggeable} onChange={(e) => setToggeable(e.target.checked)} /> Visitors may switch between light and dark
      </label>
      <div>
        <button type="submit" className="btn primary">
          Save customization
        </button>
      </div>
      <MutationStatus of={act} />
      {act.isSuccess && <p role="status">Saved.</p>}
    </form>
  );
}
