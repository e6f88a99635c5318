import type { ChangeRequest as ChangeRequestMsg } from '@quire/proto/review';
import type { Change } from '@quire/proto/space-content';
import { InvalidArgumentError } from '@quire/service-kit';
import type { Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { CHANGE_SCHEMAS, type ChangeRequest, type ContentChange, type PageDocument } from '../schemas/change-requests.ts';
import { checkJsonDocument } from '../schemas/document.ts';
import { presentUser } from './orgs.ts';
import { iso } from './time.ts';
import type { Urls } from './urls.ts';

export function presentChangeRequest(cr: ChangeRequestMsg, urls: Urls): Static<typeof ChangeRequest> {
  return {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status as Static<typeof ChangeRequest>['status'],
    subject: cr.subject,
    createdBy: presentUser(cr.createdBy, urls),
    createdAt: iso(cr.createdAt),
    updatedAt: iso(cr.updatedAt),
    revision: cr.revision,
    revisionInitial: cr.revisionInitial,
    ...(cr.revisionMergedAncestor ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
    ...(cr.revisionMerged ? { revisionMerged: cr.revisionMerged } : {}),
    comments: cr.comments,
    outdated: cr.outdated,
    urls: {
      location: urls.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`),
      app: urls.app(`/o/${cr.organizationId}/s/${cr.spaceId}/~/changes/${cr.number}`),
    },
  };
}

/** One change of the body checked against its operation's schema: the first error names the change and the field. */
function checkChange(change: { operation: keyof typeof CHANGE_SCHEMAS }, i: number): ContentChange {
  const schema = CHANGE_SCHEMAS[change.operation];
  const error = Value.Errors(schema, change).First();
  if (error) {
    const path = error.path.replace(/^\//, '').replace(/\//g, '.');
    throw new InvalidArgumentError(`body.changes[${i}]${path ? `.${path}` : ''}: ${error.message}`);
  }
  return change as ContentChange;
}

const fields = (c: { title?: string; slug?: string; emoji?: string; icon?: string; description?: string; hidden?: boolean }) => ({
  title: c.title,
  slug: c.slug,
  emoji: c.emoji,
  icon: c.icon,
  description: c.description,
  hidden: c.hidden,
});

/** A page body as the content service takes it: markdown, or a JSONDocument checked against GitBook's schema. */
function body(document: Static<typeof PageDocument> | undefined, at: string): { markdown?: string; documentJson?: string } {
  if (document === undefined) return {};
  if ('markdown' in document) return { markdown: document.markdown };
  checkJsonDocument(document, at);
  return { documentJson: JSON.stringify(document) };
}

/** The API's content changes as the content service takes them. */
export function changesToProto(changes: { operation: keyof typeof CHANGE_SCHEMAS }[]): Change[] {
  return changes.map((raw, i) => {
    const c = checkChange(raw, i);
    switch (c.operation) {
      case 'insert_page':
        return { insertPage: { fields: fields(c), type: '', ...body(c.document, `body.changes[${i}].document`), href: '', into: c.into, at: c.at, ref: c.ref ?? '' } };
      case 'update_page':
        // `into` omitted keeps the parent (`at` alone reorders), null is the root.
        return {
          updatePage: {
            page: c.page,
            fields: fields(c),
            ...body(c.document, `body.changes[${i}].document`),
            move: c.into !== undefined || c.at !== undefined,
            into: c.into ?? undefined,
            at: c.at,
            keepParent: c.into === undefined,
          },
        };
      case 'delete_page':
        return { deletePage: { page: c.page } };
      case 'revert_page':
        return { revertPage: { page: c.page, revision: c.revision ?? '' } };
      case 'insert_files':
        return {
          insertFiles: {
            files: c.files.map((f, j) => {
              if ((f.url === undefined) === (f.base64 === undefined)) throw new InvalidArgumentError(`body.changes[${i}].files[${j}]: give exactly one of url and base64`);
              if (f.base64 !== undefined && !f.contentType) throw new InvalidArgumentError(`body.changes[${i}].files[${j}].contentType: required with base64`);
              return { ref: f.ref ?? '', name: f.name, contentType: f.contentType ?? '', ...(f.url !== undefined ? { url: f.url } : { data: Buffer.from(f.base64!, 'base64') }) };
            }),
          },
        };
    }
  });
}
