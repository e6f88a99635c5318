import type { ReactNode } from 'react';

/**
 * A table of `items`, one row each, with a caption for screen readers and a header of `columns`
 * (`false` leaves one out). Nothing while the items load or when there are none: the caller's
 * loading and empty states say so.
 */
export function ListTable<T>({
  caption,
  columns,
  items,
  children,
}: {
  caption: string;
  columns: (string | false)[];
  items: readonly T[] | undefined;
  children: (item: T) => ReactNode;
}) {
  if (!items?.length) return null;
  return (
    <table className="list">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          {columns.map(
            (c) =>
              c && (
                <th key={c} scope="col">
                  {c}
                </th>
              ),
          )}
        </tr>
      </thead>
      <tbody>{items.map(children)}</tbody>
    </table>
  );
}
