/** Permission flags as the API answers them: each one `true` or `false`, never absent (a message may leave a false one out). */
export function flags<K extends string>(given: Partial<Record<K, boolean>> | undefined, ...keys: K[]): Record<K, boolean> {
  return Object.fromEntries(keys.map((k) => [k, !!given?.[k]])) as Record<K, boolean>;
}
