import type { ReactNode } from 'react';

/** A visible progress indicator, announced to screen readers. */
export function Progress({ label }: { label: string }) {
  return (
    <div className="progress" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}…
    </div>
  );
}

export function ErrorState({ title, message, action }: { title: string; message?: string; action?: ReactNode }) {
  return (
    <div className="state error" role="alert">
      <h2>{title}</h2>
      {message && <p>{message}</p>}
      {action}
    </div>
  );
}

export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state empty">
      <h2>{title}</h2>
      {children}
    </div>
  );
}

/** A query's loading, failed and empty states, in the same words and roles everywhere. */
export function QueryState({ query, loading, failed, empty }: { query: { isPending: boolean; error: Error | null }; loading: string; failed: string; empty?: string | false }) {
  return (
    <>
      {query.isPending && <Progress label={loading} />}
      {query.error && <ErrorState title={failed} message={query.error.message} />}
      {empty && <EmptyState title={empty} />}
    </>
  );
}
