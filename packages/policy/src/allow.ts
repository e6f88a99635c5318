import { atLeast, isRole, Role, roleFromApi } from './roles.ts';
import { RULES, type Threshold } from './rules.ts';

export type Resource = keyof typeof RULES;
export type Action<R extends Resource> = keyof (typeof RULES)[R] & string;

/** What a resource's state is read from, for the rows of its table with a column per state. */
export interface Contexts {
  space: { editMode: string };
  integration: { visibility: string };
  team: { owner: boolean };
}
type Rule<R extends Resource, A extends Action<R>> = (typeof RULES)[R][A];
/** `[context]` when one of the actions `A` depends on the resource's state, `[]` otherwise. */
type ContextArg<R extends Resource, A extends Action<R>> = [A extends unknown ? (Rule<R, A> extends Threshold ? never : A) : never] extends [never]
  ? []
  : [context: Contexts[R & keyof Contexts]];

/** The column of a state: 0 for the first, 1 for the second. */
const COLUMN: { [R in keyof Contexts]: (context: Contexts[R]) => 0 | 1 } = {
  space: (s) => (s.editMode === 'locked' ? 1 : 0),
  integration: (i) => (i.visibility === 'private' ? 1 : 0),
  team: (t) => (t.owner ? 1 : 0),
};

function meets(role: Role, threshold: Threshold): boolean {
  if (threshold === 'anyone') return true;
  if (threshold === 'nobody') return false;
  if (threshold === 'guest') return isRole(role);
  return atLeast(role, roleFromApi(threshold));
}

/** Whether `role` may do `action` on `resource` (in the state `context` tells, for the rows that depend on it). */
export function allow<R extends Resource, A extends Action<R>>(role: Role, action: A, resource: R, ...[context]: ContextArg<R, A>): boolean {
  const rule = (RULES[resource] as Record<string, Threshold | readonly [Threshold, Threshold]>)[action]!;
  if (typeof rule === 'string') return meets(role, rule);
  const column = (COLUMN[resource as keyof Contexts] as (c: unknown) => 0 | 1)(context);
  return meets(role, rule[column]);
}

/** The answers for several actions at once, as the API's `permissions` objects list them. */
export function permissions<R extends Resource, A extends Action<R>>(role: Role, actions: readonly A[], resource: R, ...context: ContextArg<R, A>): Record<A, boolean> {
  return Object.fromEntries(actions.map((a) => [a, allow(role, a, resource, ...(context as ContextArg<R, A>))])) as Record<A, boolean>;
}

/** Nobody grants more than it holds on an item. */
export const mayGrant = (held: Role, granted: Role): boolean => atLeast(held, granted);

/**
 * A link invite is redundant when joining through it gives no more than joining with the
 * organization's default role would (a guest default gives nothing to compare with).
 */
export const inviteRedundant = (defaultRole: Role, inviteRole: Role): boolean => atLeast(defaultRole, Role.ROLE_READ) && atLeast(defaultRole, inviteRole);
