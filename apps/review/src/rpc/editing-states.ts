import { COLLAB } from '@quire/proto/limits';
import type { ReviewServiceServer } from '@quire/proto/review';
import { InvalidArgumentError, type Handlers } from '@quire/service-kit';
import { checkWritable } from '../domain/change-requests.ts';
import { callerOf, spaceAndChangeRequest, type Deps } from './deps.ts';

/** Pages' co-editing states: read as the page is (`view`), stored as it is edited (`edit`, open or draft). */
export function editingStateHandlers(deps: Deps): Pick<Handlers<ReviewServiceServer>, 'getPageEditingState' | 'storePageEditingState'> {
  return {
    async getPageEditingState(req, ctx) {
      const { cr } = await spaceAndChangeRequest(deps, req, ctx);
      return { state: (await deps.store.editingState(cr.id, req.pageId)) ?? Buffer.alloc(0) };
    },

    async storePageEditingState(req, ctx) {
      callerOf(ctx);
      const state = req.editing?.state ?? Buffer.alloc(0);
      if (!req.pageId) throw new InvalidArgumentError('page_id: required');
      if (state.byteLength === 0) throw new InvalidArgumentError('editing.state: required');
      if (state.byteLength > COLLAB.stateBytes.max) throw new InvalidArgumentError(`editing.state: at most ${COLLAB.stateBytes.max} bytes (got ${state.byteLength})`);
      const { cr } = await spaceAndChangeRequest(deps, req, ctx, ['edit', 'edit a change request']);
      checkWritable(cr.number, cr.status, 'its pages cannot be edited');
      if (req.ifAbsent) return { state: await deps.store.storeEditingStateIfAbsent(cr.id, req.pageId, state) };
      await deps.store.storeEditingState(cr.id, req.pageId, state);
      return { state: Buffer.alloc(0) };
    },
  };
}
