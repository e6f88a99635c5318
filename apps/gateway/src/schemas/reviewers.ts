import { Type } from '@sinclair/typebox';
import { CHANGE_REQUEST } from '@quire/proto/limits';
import { ApiObject, chars, Id, items, Timestamp } from './common.ts';
import { Comment, DocumentBody } from './comments.ts';
import { User } from './orgs.ts';

export const ReviewerParams = Type.Object({ spaceId: Id('Space id'), changeRequestId: Id('Change request id or number'), userId: Id('User id') });

export const RequestedReviewer = Type.Object(
  { object: Type.Literal('change-request-requested-reviewer'), revision: Type.String(), requestedBy: User, createdAt: Timestamp, kind: Type.Literal('user'), user: User },
  { title: 'ChangeRequestRequestedReviewer' },
);

export const RequestReviewersBody = Type.Object({
  users: Type.Array(Id('User id'), items(CHANGE_REQUEST.reviewers)),
  subject: Type.Optional(Type.String(chars(CHANGE_REQUEST.subject))),
});

export const ReviewStatus = Type.Union([Type.Literal('approved'), Type.Literal('changes-requested')]);

export const Review = ApiObject(
  'change-request-review',
  {
    revision: Type.String(),
    reviewer: User,
    requestedBy: Type.Optional(User),
    status: ReviewStatus,
    outdated: Type.Boolean(),
    comment: Type.Optional(Comment),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    urls: Type.Object({ location: Type.String() }),
  },
  { title: 'ChangeRequestReview' },
);

export const SubmitReviewBody = Type.Object({ status: ReviewStatus, comment: Type.Optional(DocumentBody) });
