import type { FastifyInstance } from 'fastify';
import { mayReadUpload } from '../core/access/rules';
import { appError } from '../core/errors';
import { NAME_PATTERN, uploadOwner, uploadStore } from '../core/uploads/uploads.service';
import { MESSAGES } from '../shared/constants';
import { type AppDeps, createRequestContext } from './context';

/** GET /api/uploads/:name. Anyone not allowed gets 404, so a file's existence is not revealed. */
export function registerUploads(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { name: string } }>('/api/uploads/:name', async (req, reply) => {
    const ctx = await createRequestContext(deps, req);
    if (!ctx.user) throw appError('UNAUTHORIZED', MESSAGES.signInRequired);
    const { name } = req.params;
    const notFound = () => appError('NOT_FOUND', 'File not found.');
    if (!NAME_PATTERN.test(name) || !mayReadUpload(ctx.user, await uploadOwner(ctx.db, name)))
      throw notFound();
    // Whichever instance stored it: the store is shared in services mode (core/uploads/storage.ts).
    const file = await uploadStore(ctx.db, deps.settings).open(name);
    if (!file) throw notFound();
    return reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(file.stream);
  });
}
