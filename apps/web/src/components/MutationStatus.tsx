import { Progress } from './states.tsx';

/**
 * A write's progress and its failure, in the same words and roles everywhere. A read whose failure
 * is one line beside the rest (not a whole error state, see `QueryState`) shows with it too.
 */
export function MutationStatus({ of, label = 'Saving', prefix }: { of: { isPending: boolean; error: Error | null }; label?: string; prefix?: string }) {
  return (
    <>
      {of.isPending && <Progress label={label} />}
      {of.error && (
        <p role="alert" className="error-text">
          {prefix ? (
            <>
              <strong>{prefix}</strong> {of.error.message}
            </>
          ) : (
            of.error.message
          )}
        </p>
      )}
    </>
  );
}
