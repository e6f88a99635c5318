import type { AggregateEventsResponse } from '@quire/proto/insights';
import type { CompiledQuery } from './domain/query.ts';

/** An aggregation's result rows as the API's columns, each with its values in row order. */
export const presentAggregation = (query: CompiledQuery, rows: Record<string, unknown>[]): AggregateEventsResponse => ({
  columns: query.columns.map((c) => ({ column: c.column, claim: c.claim, values: rows.map((r) => c.decode(r[c.alias])) })),
});
