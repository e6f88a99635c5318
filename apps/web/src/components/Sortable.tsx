import { useState, type DragEvent, type ReactNode } from 'react';

const DRAG_TYPE = 'application/x-quire-sort';

/**
 * A list whose items move with "Move up"/"Move down" buttons (named after the item) or by drag and
 * drop onto a sibling; `onMove(from, to)` says where. Drags only land within the same list.
 */
export function Sortable<T>({
  items,
  name,
  label,
  onMove,
  children,
  disabled,
}: {
  items: T[];
  name: (item: T) => string;
  label: string;
  onMove: (from: number, to: number) => void;
  children: (item: T) => ReactNode;
  disabled?: boolean;
}) {
  const [over, setOver] = useState<number | null>(null);
  const [listId] = useState(() => Math.random().toString(36).slice(2));
  const drop = (to: number) => (e: DragEvent) => {
    e.preventDefault();
    setOver(null);
    const [id, from] = e.dataTransfer.getData(DRAG_TYPE).split(':');
    if (id === listId && from !== undefined && Number(from) !== to) onMove(Number(from), to);
  };
  return (
    <ol className="sortable" aria-label={label}>
      {items.map((item, i) => (
        <li
          key={name(item) + i}
          draggable={!disabled}
          data-drop={over === i ? 'over' : undefined}
          onDragStart={(e) => {
            e.stopPropagation();
            e.dataTransfer.setData(DRAG_TYPE, `${listId}:${i}`);
          }}
          onDragOver={(e) => {
            if (e.dataTransfer.types.includes(DRAG_TYPE)) {
              e.preventDefault();
              e.stopPropagation();
              setOver(i);
            }
          }}
          onDragLeave={() => setOver(null)}
          onDrop={(e) => {
            e.stopPropagation();
            drop(i)(e);
          }}
        >
          <div className="sortable-row">
            <div className="grow">{children(item)}</div>
            {!disabled && (
              <span className="actions">
                <button type="button" className="btn small" aria-label={`Move ${name(item)} up`} disabled={i === 0} onClick={() => onMove(i, i - 1)}>
                  ↑
                </button>
                <button type="button" className="btn small" aria-label={`Move ${name(item)} down`} disabled={i === items.length - 1} onClick={() => onMove(i, i + 1)}>
                  ↓
                </button>
              </span>
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}
