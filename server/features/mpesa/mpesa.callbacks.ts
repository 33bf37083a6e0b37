import { timingSafeEqual } from 'node:crypto';
import { BlockList, isIPv4, isIPv6 } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MPESA_CALLBACK_PATHS } from '../../../core/mpesa/mpesa.paths';
import { callbackStore, validateC2b } from '../../../core/mpesa/mpesa.service';
import { C2B_ACCEPT } from '../../../shared/domain/mpesa';
import { parseJson } from '../../../shared/mpesa/callbacks';
import type { AppDeps } from '../../context';

/** Daraja's bodies are small; anything larger is not one of them. */
const CALLBACK_BODY_LIMIT = 64 * 1024;
const NOT_FOUND = { error: 'No such API endpoint.' };

/** The secret path segment, compared in constant time; no secret set matches nothing. */
export function secretMatches(given: string, secret: string | undefined): boolean {
  if (!secret) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The allow-list as a BlockList (empty: any address). */
export function allowList(entries: string[]): BlockList | null {
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (!isIPv4(address) && !isIPv6(address)) continue;
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}

export function allowed(list: BlockList | null, ip: string): boolean {
  if (!list) return true;
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIPv4(address)) return list.check(address, 'ipv4');
  return isIPv6(address) && list.check(address, 'ipv6');
}

/**
 * The three Daraja callbacks, raw routes because Daraja's bodies are its own (and each must be stored as it
 * came). A wrong secret, a missing one, or an address outside the allow-list is answered like an unknown
 * path (404). Each body is stored, then answered at once; the work happens in `mpesa.process`.
 */
export function registerMpesaCallbacks(app: FastifyInstance, deps: AppDeps) {
  const secret = deps.settings.mpesa.callbackSecret;
  const list = allowList(deps.settings.mpesa.callbackIps);
  const now = () => deps.now?.() ?? new Date();
  const store = callbackStore(deps.database.db);

  app.register(async (scope) => {
    // Every body as text, whatever its content type: it is stored exactly as Daraja sent it.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'string', bodyLimit: CALLBACK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );

    const guard = (req: FastifyRequest<{ Params: { secret: string } }>, reply: FastifyReply) => {
      if (secretMatches(req.params.secret, secret) && allowed(list, req.ip)) return undefined;
      return reply.code(404).send(NOT_FOUND);
    };
    const bodyOf = (req: FastifyRequest) => (typeof req.body === 'string' ? req.body : '');

    type Req = FastifyRequest<{ Params: { secret: string } }>;
    const routes: Array<[string, 'STK' | 'C2B_CONFIRMATION']> = [
      [MPESA_CALLBACK_PATHS.stk, 'STK'],
      [MPESA_CALLBACK_PATHS.confirmation, 'C2B_CONFIRMATION'],
    ];
    for (const [path, kind] of routes) {
      scope.post(`${path}/:secret`, { bodyLimit: CALLBACK_BODY_LIMIT }, async (req: Req, reply) => {
        if (guard(req, reply)) return reply;
        const body = bodyOf(req);
        if (parseJson(body) === undefined)
          return reply.code(400).send({ error: 'The request body is not valid JSON.' });
        await store.accept({ kind, body, sourceIp: req.ip, receivedAt: now() });
        return reply.code(200).send(C2B_ACCEPT);
      });
    }

    scope.post(
      `${MPESA_CALLBACK_PATHS.validation}/:secret`,
      { bodyLimit: CALLBACK_BODY_LIMIT },
      async (req: Req, reply) => {
        if (guard(req, reply)) return reply;
        const body = bodyOf(req);
        if (parseJson(body) === undefined)
          return reply.code(400).send({ error: 'The request body is not valid JSON.' });
        const answer = await validateC2b(deps.database.db, deps.settings.mpesa.validateAccount, {
          body,
          sourceIp: req.ip,
          receivedAt: now(),
        });
        return reply.code(200).send(answer);
      },
    );
  });
}
