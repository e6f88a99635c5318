// A database column that may be NULL is, in a proto3 message, an optional field left absent or a
// string field left empty: the one rule of every service's presenters.

type Nullable<R, K extends keyof R> = { [P in K]: Exclude<R[P], null> };

/** The row's columns `keys` as optional fields of a message: absent where NULL. */
export function absentIfNull<R extends object, K extends keyof R>(row: R, ...keys: K[]): { [P in K]?: Nullable<R, K>[P] } {
  return Object.fromEntries(keys.map((k) => [k, row[k] ?? undefined])) as { [P in K]?: Nullable<R, K>[P] };
}

/** The row's text columns `keys` as string fields of a message: empty where NULL (or left out). */
export function emptyIfNull<R extends { [P in K]?: string | null }, K extends keyof R>(row: R, ...keys: K[]): { [P in K]: string } {
  return Object.fromEntries(keys.map((k) => [k, row[k] ?? ''])) as { [P in K]: string };
}
