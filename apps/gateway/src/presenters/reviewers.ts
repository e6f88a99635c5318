import type { RequestedReviewer as RequestedReviewerMsg, Review as ReviewMsg } from '@quire/proto/review';
import type { Static } from '@sinclair/typebox';
import type { RequestedReviewer, Review } from '../schemas/reviewers.ts';
import { presentComment } from './comments.ts';
import { presentUser } from './orgs.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

export function presentRequestedReviewer(r: RequestedReviewerMsg, urls: Urls): Static<typeof RequestedReviewer> {
  return {
    object: 'change-request-requested-reviewer',
    revision: r.revision,
    requestedBy: presentUser(r.requestedBy, urls),
    createdAt: iso(r.createdAt),
    kind: 'user',
    user: presentUser(r.user, urls),
  };
}

export function presentReview(r: ReviewMsg, at: { spaceId: string; changeRequestId: string }, urls: Urls): Static<typeof Review> {
  return {
    object: 'change-request-review',
    id: r.id,
    revision: r.revision,
    reviewer: presentUser(r.reviewer, urls),
    ...(r.requestedBy ? { requestedBy: presentUser(r.requestedBy, urls) } : {}),
    status: r.status as Static<typeof Review>['status'],
    outdated: r.outdated,
    ...(r.comment ? { comment: presentComment(r.comment, urls) } : {}),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    urls: { location: urls.api(`/spaces/${at.spaceId}/change-requests/${at.changeRequestId}/reviews/${r.id}`) },
  };
}
