import { ReviewServiceService } from '@quire/proto/review';
import { SERVICE_NAMES } from '@quire/proto';
import { implement, type Logger, type ServiceBinding } from '@quire/service-kit';
import { changeRequestHandlers } from './rpc/change-requests.ts';
import { commentHandlers } from './rpc/comments.ts';
import type { Deps } from './rpc/deps.ts';
import { editingStateHandlers } from './rpc/editing-states.ts';
import { exportHandlers } from './rpc/exports.ts';
import { pdfHandlers } from './rpc/pdf.ts';
import { reviewerHandlers } from './rpc/reviewers.ts';

export function reviewService(deps: Deps, log: Logger): ServiceBinding {
  return {
    definition: ReviewServiceService,
    implementation: implement(
      { ...changeRequestHandlers(deps), ...commentHandlers(deps), ...reviewerHandlers(deps), ...pdfHandlers(deps), ...exportHandlers(deps), ...editingStateHandlers(deps) },
      log,
    ),
    name: SERVICE_NAMES.review,
  };
}
