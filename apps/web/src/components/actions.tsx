import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Role } from '../types.ts';
import { Options } from './Field.tsx';

export const ROLES: Role[] = ['admin', 'create', 'edit', 'review', 'comment', 'read'];

/** A write that refreshes the queries whose first key is in `keys` once it settles. */
export function useAction(keys: string[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSettled: () => client.invalidateQueries({ predicate: (q) => keys.includes(q.queryKey[0] as string) }),
  });
}

export function RoleSelect<R extends string = Role>({
  label,
  value,
  onChange,
  roles = ROLES as R[],
  disabled,
}: {
  label: string;
  value: R;
  onChange: (r: R) => void;
  roles?: readonly R[];
  disabled?: boolean;
}) {
  return (
    <select aria-label={label} value={value} disabled={disabled} onChange={(e) => onChange(e.target.value as R)}>
      <Options of={roles} />
    </select>
  );
}
