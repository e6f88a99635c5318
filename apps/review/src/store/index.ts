import { storeOf, type Database } from '@quire/service-kit/prisma';
import { PrismaClient } from '../generated/prisma/client.ts';
import { changeRequestStore } from './change-requests.ts';
import { commentStore } from './comments.ts';
import { counterStore } from './counters.ts';
import { editingStateStore } from './editing-states.ts';
import { exportStore } from './exports.ts';
import { reviewStore } from './reviews.ts';

export type Db = Database<PrismaClient>;
export type { ChangeRequestRow } from './change-requests.ts';
export type { CommentFilter, CommentRow, ReplyRow } from './comments.ts';
export type { SpaceCounts } from './counters.ts';
export type { ExportJobRow } from './exports.ts';
export type { ReviewerRow, ReviewRow, ReviewStatus } from './reviews.ts';

/** All of the review service's queries, one file per aggregate. */
export const { createStore, openStore } = storeOf(PrismaClient)(exportStore, changeRequestStore, counterStore, reviewStore, commentStore, editingStateStore);

export type Store = ReturnType<typeof createStore>;
