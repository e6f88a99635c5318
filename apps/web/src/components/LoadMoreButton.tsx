/** The next page of a list asked a page at a time (an infinite query), while there is one. */
export function LoadMoreButton({ query, label }: { query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => Promise<unknown> }; label: string }) {
  if (!query.hasNextPage) return null;
  return (
    <button type="button" className="btn" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
      {query.isFetchingNextPage ? 'Loading…' : label}
    </button>
  );
}
