import { checkOneOf, FailedPreconditionError, InvalidArgumentError } from '@quire/service-kit';

export const STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type Status = (typeof STATUSES)[number];

/**
 * The longest a merge takes (content's deadline for it): a merge started longer ago than this has
 * ended, recorded or not, and another one may start.
 */
export const MERGE_TIMEOUT_MS = 60_000;

export function parseStatus(field: string, value: string): Status {
  return checkOneOf(field, value, STATUSES);
}

/** The list filter: `open` by default, `all` for every status. */
export function statusFilter(value: string): Status | undefined {
  if (value === '') return 'open';
  if (value === 'all') return undefined;
  return parseStatus('status', value);
}

/**
 * The moves a PATCH may make: between draft, open and archived freely (archiving closes, reopening
 * brings it back); `merged` is reached only by merging, and a merged change request stays merged.
 */
export function checkTransition(number: number, from: Status, to: Status): void {
  if (from === to) return;
  if (to === 'merged') throw new InvalidArgumentError('status: "merged" is reached by merging the change request (POST .../merge), not by a PATCH');
  if (from === 'merged') throw new FailedPreconditionError(`Change request #${number} is merged: its status cannot change`);
}

/** Only an open change request merges or updates: a draft is not ready, archived and merged ones are closed. */
export function checkOpen(number: number, status: Status, action: 'merged' | 'updated'): void {
  if (status !== 'open') throw new FailedPreconditionError(`Change request #${number} is ${status}: only an open change request can be ${action}`);
}

/** A merged or archived change request is closed: its content and reviews no longer change. */
export function checkWritable(number: number, status: Status, doing: string): void {
  if (status === 'merged' || status === 'archived') throw new FailedPreconditionError(`Change request #${number} is ${status}: ${doing}`);
}

/** The revision the change request's content forked from: the last update from the space, or where it started. */
export const baseOf = (cr: { revisionInitial: string; revisionMergedAncestor: string | null }) => cr.revisionMergedAncestor ?? cr.revisionInitial;

/** Not up to date with the space: the space moved past the change request's base. A merged or archived one is never outdated. */
export function isOutdated(cr: { status: Status; revisionInitial: string; revisionMergedAncestor: string | null }, spaceRevision: string): boolean {
  return (cr.status === 'open' || cr.status === 'draft') && baseOf(cr) !== spaceRevision;
}

/** A change request in a path is its id or its number within the space. */
export function parseReference(ref: string): { number: number } | { id: string } {
  if (ref === '') throw new InvalidArgumentError('changeRequestId: required');
  return /^[1-9][0-9]{0,8}$/.test(ref) ? { number: Number(ref) } : { id: ref };
}
