import type { ReactNode } from 'react';

/**
 * A row's small destructive button. Its accessible name says which row it acts on, as its text
 * ("Delete") is the same in every row; given `ask`, it acts only once that question is confirmed.
 */
export function DeleteButton({ label, ask, onClick, children = 'Delete' }: { label: string; ask?: string; onClick: () => void; children?: ReactNode }) {
  return (
    <button type="button" className="btn small danger" aria-label={label} onClick={() => (ask === undefined || confirm(ask)) && onClick()}>
      {children}
    </button>
  );
}
