import { INSIGHTS } from '@quire/proto/limits';
import { InvalidArgumentError } from '@quire/service-kit';
import { clickhouseTime } from './events.ts';
import { COLUMNS, encodeValue, HOUR, INTERVALS, OPERATORS, RANGES, type Bind, type ColumnDef } from './catalogue.ts';

/** A column as the API names it (SiteInsightsQueryEventsColumn). */
export interface ColumnRef {
  column: string;
  interval?: string;
  claim?: string;
  precision?: number;
}

export interface Aggregation {
  select: ColumnRef[];
  where: { column: ColumnRef; operator?: string; values: unknown[] }[];
  groupBy: ColumnRef[];
  order?: { by: ColumnRef; direction: string };
  range: { preset?: string; custom?: { from?: Date; to?: Date } };
  /** 1..1000; 0 for the default. */
  limit: number;
}

export interface CompiledQuery {
  sql: string;
  params: Record<string, unknown>;
  /** Reads a result row (`c0`, `c1`, ...) back as the API's columns. */
  columns: { column: string; claim?: string; alias: string; decode: (v: unknown) => unknown }[];
}

interface Resolved {
  ref: ColumnRef;
  def: ColumnDef;
  /** Equal keys mean the same column: `select` entries are matched to `groupBy` ones by it. */
  key: string;
}

/** A column of the catalogue; `answered` ones (selected, grouped, ordered by) appear in the answer. */
function resolve(ref: ColumnRef, field: string, answered = true): Resolved {
  const def = Object.hasOwn(COLUMNS, ref.column) ? COLUMNS[ref.column] : undefined;
  if (!def) throw new InvalidArgumentError(`${field}.column: unknown column "${ref.column}"`);
  if (answered && def.filterOnly) throw new InvalidArgumentError(`${field}.column: "${ref.column}" can only filter (where): answers carry GitBook's columns alone`);
  if (ref.interval !== undefined) {
    if (ref.column !== 'datetime') throw new InvalidArgumentError(`${field}.interval: only the datetime column takes an interval`);
    if (!Object.hasOwn(INTERVALS, ref.interval))
      throw new InvalidArgumentError(`${field}.interval: unknown interval "${ref.interval}" (one of ${Object.keys(INTERVALS).join(', ')})`);
  }
  if (ref.column === 'visitorClaim' && !ref.claim) throw new InvalidArgumentError(`${field}.claim: required for the visitorClaim column`);
  if (ref.claim !== undefined && ref.column !== 'visitorClaim') throw new InvalidArgumentError(`${field}.claim: only the visitorClaim column takes a claim`);
  if (
    ref.precision !== undefined &&
    (ref.column !== 'visitorGeoPoint' || !Number.isInteger(ref.precision) || ref.precision < INSIGHTS.precision.min || ref.precision > INSIGHTS.precision.max)
  ) {
    throw new InvalidArgumentError(`${field}.precision: an integer ${INSIGHTS.precision.min}..${INSIGHTS.precision.max}, for the visitorGeoPoint column only`);
  }
  return { ref, def, key: JSON.stringify([ref.column, ref.interval ?? null, ref.claim ?? null]) };
}

const HOUR_MS = 3600_000;
const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / HOUR_MS) * HOUR_MS);

/**
 * The time condition of the query. A preset covers whole hours, from the hour it starts in to the
 * current one: that is a condition on the hour, which the hourly projections answer. A custom
 * range is taken to the millisecond, both ends included.
 */
function timeCondition(range: Aggregation['range'] | undefined, now: Date, bind: Bind): string {
  if (range?.preset !== undefined) {
    const start = Object.hasOwn(RANGES, range.preset) ? RANGES[range.preset] : undefined;
    if (!start) throw new InvalidArgumentError(`range: unknown range "${range.preset}" (one of ${Object.keys(RANGES).join(', ')}, or {from, to})`);
    const hour = (d: Date) => bind("DateTime('UTC')", clickhouseTime(hourOf(d)).slice(0, 19));
    return `${HOUR} >= ${hour(start(now))} AND ${HOUR} <= ${hour(now)}`;
  }
  const { from, to } = range?.custom ?? {};
  if (!range?.custom) throw new InvalidArgumentError('range: required');
  if (!from || !to) throw new InvalidArgumentError(`range.${from ? 'to' : 'from'}: required`);
  if (from.getTime() >= to.getTime()) throw new InvalidArgumentError('range: from must be before to');
  const time = (d: Date) => bind("DateTime64(3, 'UTC')", clickhouseTime(d));
  return `timestamp >= ${time(from)} AND timestamp <= ${time(to)}`;
}

/**
 * An aggregation request as one parameterized ClickHouse query over `events`, scoped to the
 * organization and site. Column expressions come from the catalogue; every value the caller gave
 * (site, claims, filter values, range, limit) is a `{pN:Type}` parameter.
 */
export function compileAggregation(q: Aggregation, scope: { organizationId: string; siteId: string }, now: Date): CompiledQuery {
  const params: Record<string, unknown> = {};
  const names = new Map<string, string>();
  // One parameter per distinct (type, value): a claim used in SELECT and GROUP BY then reads as
  // the same expression to ClickHouse.
  const bind: Bind = (type, value) => {
    const id = JSON.stringify([type, value]);
    let name = names.get(id);
    if (!name) {
      name = `p${names.size}`;
      names.set(id, name);
      params[name] = value;
    }
    return `{${name}:${type}}`;
  };

  if (q.select.length === 0) throw new InvalidArgumentError('select: at least one column');
  const { min, max } = INSIGHTS.limit;
  const limit = q.limit === 0 ? max : q.limit;
  if (!Number.isInteger(limit) || limit < min || limit > max) throw new InvalidArgumentError(`limit: an integer ${min}..${max}`);

  const select = q.select.map((ref, i) => resolve(ref, `select[${i}]`));
  const groupBy = q.groupBy.map((ref, i) => resolve(ref, `groupBy[${i}]`));
  groupBy.forEach((g, i) => {
    if (g.def.kind === 'metric') throw new InvalidArgumentError(`groupBy[${i}].column: "${g.ref.column}" is a count and cannot be grouped by`);
  });
  const grouped = new Set(groupBy.map((g) => g.key));
  select.forEach((s, i) => {
    if (s.def.kind === 'dimension' && !grouped.has(s.key)) throw new InvalidArgumentError(`select[${i}].column: "${s.ref.column}" must also be in groupBy`);
  });

  const where = [`organization_id = ${bind('String', scope.organizationId)}`, `site_id = ${bind('String', scope.siteId)}`, timeCondition(q.range, now, bind)];
  const having: string[] = [];
  q.where.forEach((f, i) => {
    const field = `where[${i}]`;
    const { ref, def } = resolve(f.column, field, false);
    if (!def.filter) throw new InvalidArgumentError(`${field}.column: "${ref.column}" cannot be filtered on`);
    const operatorName = f.operator ?? 'in';
    const operator = Object.hasOwn(OPERATORS, operatorName) ? OPERATORS[operatorName] : undefined;
    if (!operator) throw new InvalidArgumentError(`${field}.operator: unknown operator "${operatorName}" (one of ${Object.keys(OPERATORS).join(', ')})`);
    if (f.values.length === 0 || f.values.length > INSIGHTS.values.max) throw new InvalidArgumentError(`${field}.values: 1..${INSIGHTS.values.max} values`);
    if (operator.single && f.values.length !== 1) throw new InvalidArgumentError(`${field}.values: exactly one value for the ${operatorName} operator`);
    const filter = def.filter;
    const values = f.values.map((v, j) => encodeValue(filter, v, `${field}.values[${j}]`));
    const expr = (filter.expr ?? def.expr)(ref, bind);
    const operand = operator.single ? bind(filter.type, values[0]) : bind(`Array(${filter.type})`, values);
    (def.kind === 'metric' ? having : where).push(`${expr} ${operator.sql} ${operand}`);
  });

  const columns = select.map((s, i) => ({ column: s.ref.column, ...(s.ref.claim !== undefined ? { claim: s.ref.claim } : {}), alias: `c${i}`, decode: s.def.decode }));
  let sql = `SELECT ${select.map((s, i) => `${s.def.expr(s.ref, bind)} AS c${i}`).join(', ')} FROM events WHERE ${where.join(' AND ')}`;
  if (groupBy.length > 0) sql += ` GROUP BY ${groupBy.map((g) => g.def.expr(g.ref, bind)).join(', ')}`;
  if (having.length > 0) sql += ` HAVING ${having.join(' AND ')}`;
  if (q.order) {
    const by = resolve(q.order.by, 'order.by');
    if (q.order.direction !== 'asc' && q.order.direction !== 'desc') throw new InvalidArgumentError(`order.direction: unknown direction "${q.order.direction}" (asc or desc)`);
    if (by.def.kind === 'dimension' && !grouped.has(by.key)) throw new InvalidArgumentError(`order.by.column: "${by.ref.column}" must also be in groupBy`);
    sql += ` ORDER BY ${by.def.expr(by.ref, bind)} ${q.order.direction === 'asc' ? 'ASC' : 'DESC'}`;
  } else if (groupBy.length > 0) {
    // Without an order, rows come in group order: stable answers for the same data.
    sql += ` ORDER BY ${groupBy.map((g) => g.def.expr(g.ref, bind)).join(', ')}`;
  }
  sql += ` LIMIT ${bind('UInt32', limit)}`;
  return { sql, params, columns };
}
