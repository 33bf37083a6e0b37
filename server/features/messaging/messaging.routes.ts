import type { FastifyInstance, FastifyRequest } from 'fastify';
import { proofPhotoForToken } from '../../../core/messaging/messaging.queries';
import { storeInbound } from '../../../core/messaging/messaging.service';
import { uploadStore } from '../../../core/uploads/uploads.service';
import { signatureValid, verificationChallenge } from '../../../shared/whatsapp/webhook';
import type { AppDeps } from '../../context';
import { allowed, allowList, secretMatches } from '../mpesa/mpesa.callbacks';

/** Meta's webhook bodies are small JSON; Africa's Talking's forms smaller still. */
const WEBHOOK_BODY_LIMIT = 256 * 1024;
const FORM_BODY_LIMIT = 16 * 1024;
const NOT_FOUND = { error: 'No such API endpoint.' };

export const WHATSAPP_WEBHOOK_PATH = '/api/whatsapp/webhook';
export const SMS_DELIVERY_PATH = '/api/sms/delivery';
export const SMS_INBOUND_PATH = '/api/sms/inbound';

export const WEBHOOK_MESSAGES = {
  verifyRefused: 'The verify token does not match.',
  signatureRefused: 'The X-Hub-Signature-256 signature does not match this body.',
  notConfigured: 'WhatsApp is not configured on this server (WHATSAPP_APP_SECRET).',
  notJson: 'The request body is not valid JSON.',
} as const;

/**
 * JSON as Fastify's own parser takes it: a `__proto__` key, or a `constructor` with a `prototype`, is
 * refused (the body is kept as text and read again later; nothing that could poison an object passes).
 */
function parseWithoutPoisoning(text: string): unknown {
  return JSON.parse(text, (key, value) => {
    if (
      key === '__proto__' ||
      (key === 'constructor' && value && typeof value === 'object' && 'prototype' in value)
    )
      throw new SyntaxError('prototype poisoning');
    return value;
  });
}

/**
 * The customer rails' callbacks (issue 29), raw routes because each body must be kept as it came: Meta's
 * webhook is checked against X-Hub-Signature-256 over the raw bytes (refused while WHATSAPP_APP_SECRET is
 * unset), Africa's Talking's behind the secret path segment and the optional address list (it signs
 * nothing; a wrong segment is an unknown path, 404). Each is stored with its job and answered at once;
 * `messaging.inbound` does the work (Meta retries slow answers and reorders them).
 */
export function registerMessagingRoutes(app: FastifyInstance, deps: AppDeps) {
  const { whatsapp, sms } = deps.settings;
  const list = allowList(sms.callbackIps);
  const now = () => deps.now?.() ?? new Date();

  app.get(WHATSAPP_WEBHOOK_PATH, async (req, reply) => {
    const challenge = verificationChallenge(req.query as Record<string, unknown>, whatsapp.verifyToken);
    if (challenge === null) return reply.code(403).send({ error: WEBHOOK_MESSAGES.verifyRefused });
    return reply.code(200).type('text/plain').send(challenge);
  });

  app.register(async (scope) => {
    // The raw bytes, whatever the content type: the signature is over them.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT },
      (_req, body, done) => done(null, body),
    );
    scope.post(WHATSAPP_WEBHOOK_PATH, { bodyLimit: WEBHOOK_BODY_LIMIT }, async (req, reply) => {
      if (!whatsapp.appSecret) return reply.code(401).send({ error: WEBHOOK_MESSAGES.notConfigured });
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['x-hub-signature-256'];
      if (!signatureValid(raw, typeof header === 'string' ? header : undefined, whatsapp.appSecret))
        return reply.code(401).send({ error: WEBHOOK_MESSAGES.signatureRefused });
      const text = raw.toString('utf8');
      try {
        parseWithoutPoisoning(text);
      } catch {
        return reply.code(400).send({ error: WEBHOOK_MESSAGES.notJson });
      }
      await storeInbound(deps.database.db, {
        source: 'WHATSAPP',
        body: text,
        sourceIp: req.ip,
        receivedAt: now(),
      });
      return reply.code(200).send({ received: true });
    });
  });

  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    type Req = FastifyRequest<{ Params: { secret: string } }>;
    const routes: Array<[string, 'SMS_DELIVERY' | 'SMS_INBOUND']> = [
      [SMS_DELIVERY_PATH, 'SMS_DELIVERY'],
      [SMS_INBOUND_PATH, 'SMS_INBOUND'],
    ];
    for (const [path, source] of routes)
      scope.post(`${path}/:secret`, { bodyLimit: FORM_BODY_LIMIT }, async (req: Req, reply) => {
        if (!secretMatches(req.params.secret, sms.callbackSecret) || !allowed(list, req.ip))
          return reply.code(404).send(NOT_FOUND);
        const body = typeof req.body === 'string' ? req.body : '';
        await storeInbound(deps.database.db, { source, body, sourceIp: req.ip, receivedAt: now() });
        return reply.code(200).send({ received: true });
      });
  });
}

export const PROOF_PHOTO_PATH = '/api/track/:token/proof/:loadId';

/**
 * A delivered load's proof photo for whoever holds the order's tracking link (the WhatsApp image of the
 * delivered news points here: Meta fetches it). Any other token or load is 404, like an unknown one.
 */
export function registerProofPhoto(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { token: string; loadId: string } }>(PROOF_PHOTO_PATH, async (req, reply) => {
    const { token, loadId } = req.params;
    const id = Number(loadId);
    const notFound = () => reply.code(404).send({ error: 'Photo not found.' });
    if (!/^[A-Za-z0-9_-]{16,100}$/.test(token) || !Number.isInteger(id) || id < 1 || id > 2_147_483_647)
      return notFound();
    const name = await proofPhotoForToken(deps.database.db, token, id);
    const file = name ? await uploadStore(deps.database.db, deps.settings).open(name) : undefined;
    if (!file) return notFound();
    return reply
      .header('content-type', file.contentType)
      .header('content-length', file.size)
      .header('cache-control', 'private, max-age=3600')
      .send(file.stream);
  });
}
