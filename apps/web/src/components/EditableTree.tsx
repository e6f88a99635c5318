import { useRef, useState, type DragEvent, type RefObject } from 'react';
import { Link } from 'wouter';
import { Field } from './Field.tsx';
import { InlineForm } from './InlineForm.tsx';
import { moveBefore, moveFor, moveInto, type TreeAction, type TreeMove } from '../lib/tree.ts';
import type { RevisionPage } from '../types.ts';

interface Props {
  pages: RevisionPage[];
  current?: string;
  href: (p: RevisionPage) => string;
  /** Sends one `update_page` change (a rename or a move). */
  update: (change: { page: string; title?: string } & TreeMove) => void;
  busy: boolean;
}

const ACTIONS: { action: TreeAction; label: string; icon: string }[] = [
  { action: 'up', label: 'Move up', icon: '↑' },
  { action: 'down', label: 'Move down', icon: '↓' },
  { action: 'outdent', label: 'Outdent', icon: '←' },
  { action: 'indent', label: 'Indent', icon: '→' },
];

/**
 * A change request's page tree, editable: rename, move up/down, indent/outdent with buttons (so the
 * keyboard does all), and drag and drop (onto the upper half of a page: before it; the lower
 * half: into it). The open page is renamed in its title field.
 */
export function EditableTree(props: Props) {
  // Read by the drag events as they come, before any render could pass it down.
  const dragged = useRef<string | undefined>(undefined);
  if (!props.pages.length) return null;
  return (
    <nav className="tree editable" aria-label="Page tree">
      <Branch {...props} list={props.pages} dragged={dragged} />
    </nav>
  );
}

type BranchProps = Props & { list: RevisionPage[]; dragged: RefObject<string | undefined> };

function Branch(props: BranchProps) {
  return (
    <ul>
      {props.list.map((p) => (
        <Item key={p.id} {...props} page={p} />
      ))}
    </ul>
  );
}

function Item(props: BranchProps & { page: RevisionPage }) {
  const { page: p, pages, current, href, update, busy, dragged } = props;
  const [renaming, setRenaming] = useState(false);
  const [title, setTitle] = useState(p.title);
  const [drop, setDrop] = useState<'before' | 'into'>();
  const where = (e: DragEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return e.clientY < box.top + box.height / 2 ? 'before' : 'into';
  };
  const targetMove = (side: 'before' | 'into') => {
    const id = dragged.current;
    const move = id === undefined || busy ? undefined : side === 'before' ? moveBefore(pages, id, p.id) : moveInto(pages, id, p.id);
    return move && { page: id!, ...move };
  };
  const submit = () => {
    const t = title.trim();
    if (t && t !== p.title) update({ page: p.id, title: t });
    setRenaming(false);
  };
  return (
    <li>
      <div
        className={`item${drop ? ` drop-${drop}` : ''}`}
        // Always draggable (a drop waits for the tree to be saved): a background refetch must not cancel a drag.
        draggable={!renaming}
        onDragStart={(e) => {
          e.dataTransfer.setData('text/plain', p.id);
          e.dataTransfer.effectAllowed = 'move';
          dragged.current = p.id;
        }}
        onDragEnd={() => (dragged.current = undefined)}
        onDragOver={(e) => {
          const side = where(e);
          if (!targetMove(side)) return setDrop(undefined);
          e.preventDefault();
          setDrop(side);
        }}
        onDragLeave={() => setDrop(undefined)}
        onDrop={(e) => {
          e.preventDefault();
          const move = targetMove(where(e));
          setDrop(undefined);
          dragged.current = undefined;
          if (move) update(move);
        }}
      >
        {renaming ? (
          <InlineForm submit="Save" buttonClass="btn small" onSubmit={submit}>
            {/* A rename field opened by the user takes the focus it asked for. */}
            <Field label={`New title of ${p.title}`} hideLabel bind={[title, setTitle]} maxLength={256} autoFocus onKeyDown={(e) => e.key === 'Escape' && setRenaming(false)} />
          </InlineForm>
        ) : p.type === 'group' ? (
          <span className="muted small">{p.title}</span>
        ) : (
          <Link href={href(p)} aria-current={p.id === current ? 'page' : undefined}>
            {p.emoji && <span aria-hidden="true">{p.emoji} </span>}
            {p.title}
          </Link>
        )}
        {!renaming && (
          <span className="tree-actions">
            {p.id !== current && (
              <button
                type="button"
                className="icon"
                aria-label={`Rename ${p.title}`}
                title="Rename"
                disabled={busy}
                onClick={() => {
                  setTitle(p.title);
                  setRenaming(true);
                }}
              >
                ✎
              </button>
            )}
            {ACTIONS.map(({ action, label, icon }) => {
              const move = moveFor(pages, p.id, action);
              return (
                <button
                  key={action}
                  type="button"
                  className="icon"
                  aria-label={`${label}: ${p.title}`}
                  title={label}
                  disabled={busy || !move}
                  onClick={() => move && update({ page: p.id, ...move })}
                >
                  {icon}
                </button>
              );
            })}
          </span>
        )}
      </div>
      {p.pages && p.pages.length > 0 && <Branch {...props} list={p.pages} />}
    </li>
  );
}
