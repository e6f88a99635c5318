import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { all, api } from '../../api.ts';
import { useAction } from '../../components/actions.tsx';
import { DeleteButton } from '../../components/DeleteButton.tsx';
import { Field, SelectField } from '../../components/Field.tsx';
import { InlineForm } from '../../components/InlineForm.tsx';
import { MutationStatus } from '../../components/MutationStatus.tsx';
import { Sortable } from '../../components/Sortable.tsx';
import { QueryState } from '../../components/states.tsx';
import { sectionsOf, siteSpacesOf, sortBody } from '../../lib/structure.ts';
import type { Space } from '../../types.ts';
import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from '../../types.ts';
import type { SiteProps } from '../Site.tsx';

type Act = ReturnType<typeof useAction>;

/** A site's sections, section groups and site-spaces: add, remove, group, and sort them. */
export function Structure({ org, site }: SiteProps) {
  const base = `/orgs/${org}/sites/${site.id}`;
  const structure = useQuery({ queryKey: ['site-structure', site.id], queryFn: () => api.get<SiteStructure>(`${base}/structure`) });
  const spaces = useQuery({ queryKey: ['spaces', org], queryFn: () => all<Space>(`/orgs/${org}/spaces`) });
  const act = useAction(['site-structure', 'site', 'sites']);
  const s = structure.data;
  const move = (siblings: (SiteSpace | SiteSection | SiteSectionGroup)[]) => (from: number, to: number) => {
    const body = sortBody(siblings, from, to);
    if (body) act.mutate(() => api.patch(`${base}/structure/sort`, body));
  };
  const groups = s?.type === 'sections' ? s.structure.filter((i): i is SiteSectionGroup => i.object === 'site-section-group') : [];

  const siteSpaceList = (items: SiteSpace[], label: string) =>
    items.length === 0 ? (
      <p className="muted small">No spaces in {label}.</p>
    ) : (
      <Sortable items={items} name={(ss) => `space ${ss.title}`} label={`Spaces of ${label}`} onMove={move(items)}>
        {(ss) => (
          <div className="inline">
            <span className="grow">
              {ss.title} <span className="muted small">/{ss.path}</span> {ss.default && <span className="status">default</span>}
            </span>
            <DeleteButton label={`Remove ${ss.title} from the site`} onClick={() => act.mutate(() => api.delete(`${base}/site-spaces/${ss.id}`))}>
              Remove
            </DeleteButton>
          </div>
        )}
      </Sortable>
    );

  const sectionRow = (section: SiteSection) => (
    <div>
      <div className="inline">
        <strong className="grow">
          {section.title} <span className="muted small">/{section.path}</span> {section.default && <span className="status">default</span>}
        </strong>
        {groups.length > 0 && (
          <SelectField
            label={`Group of ${section.title}`}
            hideLabel
            value={section.sectionGroup ?? ''}
            onChange={(e) => {
              const to = e.target.value;
              act.mutate(() =>
                to
                  ? api.post(`${base}/section-groups/${to}/sections`, { sectionId: section.id })
                  : api.delete(`${base}/section-groups/${section.sectionGroup}/sections/${section.id}`),
              );
            }}
            options={groups.map((g) => [g.id, g.title] as const)}
          >
            <option value="">No group</option>
          </SelectField>
        )}
        <DeleteButton
          label={`Delete section ${section.title}`}
          ask={`Delete the section “${section.title}” and its spaces from the site?`}
          onClick={() => act.mutate(() => api.delete(`${base}/sections/${section.id}`))}
        />
      </div>
      {siteSpaceList(section.siteSpaces, `section ${section.title}`)}
    </div>
  );

  return (
    <section aria-label="Structure">
      <AddForms base={base} structure={s} spaces={spaces.data ?? []} act={act} />
      <MutationStatus of={act} />
      <QueryState query={structure} loading="Loading the structure" failed="Could not load the structure" />
      {s?.type === 'siteSpaces' && siteSpaceList(s.structure, 'the site')}
      {s?.type === 'sections' && (
        <Sortable items={s.structure} name={(i) => `${i.object === 'site-section-group' ? 'group' : 'section'} ${i.title}`} label="Sections and groups" onMove={move(s.structure)}>
          {(item) =>
            item.object === 'site-section-group' ? (
              <div className="group">
                <div className="inline">
                  <strong className="grow">Group: {item.title}</strong>
                  <DeleteButton label={`Delete group ${item.title}`} onClick={() => act.mutate(() => api.delete(`${base}/section-groups/${item.id}`))}>
                    Delete group
                  </DeleteButton>
                </div>
                {item.sections.length ? (
                  <Sortable items={item.sections} name={(x) => `section ${x.title}`} label={`Sections of group ${item.title}`} onMove={move(item.sections)}>
                    {sectionRow}
                  </Sortable>
                ) : (
                  <p className="muted small">No sections in this group.</p>
                )}
              </div>
            ) : (
              sectionRow(item)
            )
          }
        </Sortable>
      )}
    </section>
  );
}

function AddForms({ base, structure, spaces, act }: { base: string; structure: SiteStructure | undefined; spaces: Space[]; act: Act }) {
  const [space, setSpace] = useState('');
  const [section, setSection] = useState('');
  const [sectionSpace, setSectionSpace] = useState('');
  const [sectionTitle, setSectionTitle] = useState('');
  const [groupTitle, setGroupTitle] = useState('');
  const sections = structure ? sectionsOf(structure) : [];
  const onSite = new Set(structure ? siteSpacesOf(structure).map((ss) => ss.space?.id) : []);
  const spaceOptions = (chosen: string, set: (v: string) => void, label: string, all = false) => (
    <SelectField
      label={label}
      hideLabel
      value={chosen}
      onChange={(e) => set(e.target.value)}
      options={spaces.filter((sp) => all || !onSite.has(sp.id)).map((sp) => [sp.id, sp.title] as const)}
    >
      <option value="">Choose a space…</option>
    </SelectField>
  );
  const submit = (run: () => Promise<unknown>, reset: () => void) => () => act.mutate(() => run().then(reset));
  return (
    <div className="stack">
      <InlineForm
        submit="Add space"
        buttonClass="btn primary"
        disabled={!space}
        onSubmit={submit(
          () => api.post(`${base}/site-spaces`, { spaceId: space, ...(section ? { sectionId: section } : {}) }),
          () => setSpace(''),
        )}
      >
        {spaceOptions(space, setSpace, 'Space to add to the site')}
        {sections.length > 0 && (
          <SelectField
            label="Section of the added space"
            hideLabel
            value={section}
            onChange={(e) => setSection(e.target.value)}
            options={sections.map((x) => [x.id, x.title] as const)}
          >
            <option value="">The default section</option>
          </SelectField>
        )}
      </InlineForm>
      <InlineForm
        submit="Add section"
        disabled={!sectionSpace}
        onSubmit={submit(
          () => api.post(`${base}/sections`, { spaceId: sectionSpace, ...(sectionTitle.trim() ? { title: sectionTitle.trim() } : {}) }),
          () => {
            setSectionSpace('');
            setSectionTitle('');
          },
        )}
      >
        {spaceOptions(sectionSpace, setSectionSpace, 'Space of the new section', true)}
        <Field label="New section title" hideLabel bind={[sectionTitle, setSectionTitle]} placeholder="Section title (optional)" minLength={2} maxLength={128} />
      </InlineForm>
      {sections.length > 0 && (
        <InlineForm
          submit="Add group"
          onSubmit={submit(
            () => api.post(`${base}/section-groups`, { title: groupTitle.trim() }),
            () => setGroupTitle(''),
          )}
        >
          <Field label="New group title" hideLabel bind={[groupTitle, setGroupTitle]} placeholder="Group title" maxLength={100} required />
        </InlineForm>
      )}
    </div>
  );
}
