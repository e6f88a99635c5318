import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotFoundError } from '@quire/service-kit';
import type { ExportJob } from '@quire/proto/review';
import type { FastifyReply } from 'fastify';
import { ChangeRequestParams } from '../schemas/change-requests.ts';
import { SpaceParams } from '../schemas/content.ts';
import { ExportDownloadQuery, ExportLink, ExportQuery, exportDownloadResponses } from '../schemas/exports.ts';
import type { RouteDeps } from './context.ts';
import { operations } from './operation.ts';

// Quire's exports (beyond GitBook's API): a space's content, or a change request's, as a Markdown
// ZIP, a static HTML ZIP or a PDF. Asking for one checks that the caller may read the content and
// that it is within the bounds of an export (400 naming the bound, before anything is rendered),
// then starts (or reuses) review's export job for that content, format and user; the link names
// the job and lives as long as review keeps it (an hour from the last ask). Every export is a job:
// one path, a PDF of hundreds of pages never holds a request, and a second ask reuses the file.
// The download answers 202 with the job's progress while it runs, the file once done, the
// job's reason when it failed; it reads as the link's user, whose read access is checked again.

const tags = ['exports'];
const op = operations(...tags);
/** When a client polling a download link should come back. */
const RETRY_SECONDS = 2;
const spacePath = (spaceId: string) => `/v1/spaces/${spaceId}/export/download`;
const changeRequestPath = (spaceId: string, changeRequestId: string) => `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/export/download`;

const presentJob = (job: ExportJob) => ({
  id: job.id,
  state: job.state as 'queued' | 'running' | 'done' | 'failed',
  pagesDone: job.pagesDone,
  pagesTotal: job.pagesTotal,
  filesDone: job.filesDone,
  filesTotal: job.filesTotal,
  expiresAt: job.expiresAt!.toISOString(),
});

const routes: FastifyPluginAsyncTypebox<RouteDeps> = async (app, { services: { review }, links }) => {
  /** The link to the job's download, for the job's user, dying with the job. */
  const linkTo = <F extends string>(path: string, format: F, user: string, job: ExportJob) => ({
    format,
    url: links.sign(path, { format, user, job: job.id }, Math.floor(job.expiresAt!.getTime() / 1000) - Math.floor(Date.now() / 1000)),
    job: presentJob(job),
  });

  /** The job as the link's user: 202 with its progress while it runs, the file as an attachment once done. */
  const download = async (reply: FastifyReply, req: { spaceId: string; changeRequest: string; job: string; user: string; requestId: string }) => {
    const res = await review.getExport({ spaceId: req.spaceId, changeRequest: req.changeRequest, jobId: req.job }, { userId: req.user, requestId: req.requestId });
    if (res.job!.state !== 'done') return reply.code(202).header('retry-after', String(RETRY_SECONDS)).header('cache-control', 'no-store').send(presentJob(res.job!));
    return reply
      .header('content-type', res.contentType)
      .header('content-disposition', `attachment; filename="${res.filename}"`)
      .header('cache-control', 'private, max-age=300')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(res.data));
  };
  const expired = () => new NotFoundError('Export not found, or its link has expired');

  app.get(
    '/spaces/:spaceId/export',
    op({
      operationId: 'exportSpace',
      summary:
        "Starts (or reuses) the export of the space's content as a Markdown ZIP, a static HTML ZIP or a PDF, and answers a signed link (1 hour) to it; 400 naming the bound when the content is too big to export",
      params: SpaceParams,
      querystring: ExportQuery,
      response: { 200: ExportLink },
    }),
    async (req) => {
      const { spaceId } = req.params;
      const { format } = req.query;
      const job = await review.startExport({ spaceId, changeRequest: '', format }, req.caller);
      return linkTo(spacePath(spaceId), format, req.caller.userId ?? '', job);
    },
  );

  app.get(
    '/spaces/:spaceId/export/download',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadSpaceExport',
        tags,
        summary:
          'The file a signed export link names, as an attachment (the signature is the permission); 202 with the job and Retry-After while it is made; its reason (400, 404, 409) when it failed',
        params: SpaceParams,
        querystring: ExportDownloadQuery,
        security: [],
        response: exportDownloadResponses,
      },
    },
    async (req, reply) => {
      const { spaceId } = req.params;
      const { format, user, job, exp, sig } = req.query;
      if (!links.verify(spacePath(spaceId), { format, user, job }, exp, sig)) throw expired();
      return download(reply, { spaceId, changeRequest: '', job, user, requestId: req.id });
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/export',
    op({
      operationId: 'exportChangeRequest',
      summary:
        "Starts (or reuses) the export of the change request's content as a Markdown ZIP, a static HTML ZIP or a PDF, and answers a signed link (1 hour) to it; 400 naming the bound when the content is too big to export",
      params: ChangeRequestParams,
      querystring: ExportQuery,
      response: { 200: ExportLink },
    }),
    async (req) => {
      const cr = await review.getChangeRequest({ spaceId: req.params.spaceId, changeRequest: req.params.changeRequestId }, req.caller);
      const { format } = req.query;
      const job = await review.startExport({ spaceId: cr.spaceId, changeRequest: cr.id, format }, req.caller);
      return linkTo(changeRequestPath(cr.spaceId, cr.id), format, req.caller.userId ?? '', job);
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/export/download',
    {
      config: { public: true },
      schema: {
        operationId: 'downloadChangeRequestExport',
        tags,
        summary:
          'The file a signed change-request export link names, as an attachment (the signature is the permission); 202 with the job and Retry-After while it is made; its reason when it failed',
        params: ChangeRequestParams,
        querystring: ExportDownloadQuery,
        security: [],
        response: exportDownloadResponses,
      },
    },
    async (req, reply) => {
      const { spaceId, changeRequestId } = req.params;
      const { format, user, job, exp, sig } = req.query;
      if (!links.verify(changeRequestPath(spaceId, changeRequestId), { format, user, job }, exp, sig)) throw expired();
      return download(reply, { spaceId, changeRequest: changeRequestId, job, user, requestId: req.id });
    },
  );
};

export default routes;
