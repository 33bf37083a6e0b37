import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq, or } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { drivers, fuelLogs } from '../drizzle/schema';
import type { Config } from './config';
import { type AppDeps, createRequestContext } from './context';
import { appError, toHttpError } from './errors';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MESSAGES = {
  notImage: 'Only images can be uploaded.',
  tooLarge: 'Images must be 5 MB or smaller.',
} as const;

export type UploadKind = 'national-id' | 'driver-photo' | 'fuel-photo';
const ALLOWED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const NAME_PATTERN = /^(national-id|driver-photo|fuel-photo)-[a-f0-9]{32}\.jpg$/;

export function uploadsDir(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'uploads');
}

/**
 * Stores an image sent as a data URL. The bytes decide, not the declared type: only real JPEG, PNG
 * or WebP images of at most 5 MB are kept, re-encoded as JPEG, which drops EXIF and GPS metadata.
 * Returns the stored file name (random, so names cannot be guessed).
 */
export async function storeImage(
  config: Pick<Config, 'dataDir'>,
  dataUrl: string,
  kind: UploadKind,
): Promise<string> {
  const match = /^data:([\w/+.-]*)(;[\w=-]+)*;base64,([A-Za-z0-9+/=\s]+)$/.exec(dataUrl.trim());
  if (!match) throw appError('BAD_REQUEST', UPLOAD_MESSAGES.notImage);
  const bytes = Buffer.from(match[3]!, 'base64');
  if (bytes.length > MAX_IMAGE_BYTES) throw appError('PAYLOAD_TOO_LARGE', UPLOAD_MESSAGES.tooLarge);
  let output: Buffer;
  try {
    const image = sharp(bytes, { failOn: 'error', limitInputPixels: 40_000_000 });
    const meta = await image.metadata();
    if (!meta.format || !ALLOWED_FORMATS.has(meta.format)) throw new Error(`format ${meta.format}`);
    output = await image
      .rotate()
      .resize({ width: 2000, height: 2000, fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 82 })
      .toBuffer();
  } catch {
    throw appError('BAD_REQUEST', UPLOAD_MESSAGES.notImage);
  }
  const name = `${kind}-${randomBytes(16).toString('hex')}.jpg`;
  await mkdir(uploadsDir(config), { recursive: true });
  await writeFile(join(uploadsDir(config), name), output, { mode: 0o600 });
  return name;
}

/**
 * GET /api/uploads/:name. Driver documents go to ADMIN and to the driver they belong to; fuel photos
 * to FUEL, OPS and ADMIN. Anyone else gets 404, so a file's existence is not revealed.
 */
export function registerUploads(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { name: string } }>('/api/uploads/:name', async (req, reply) => {
    try {
      const ctx = await createRequestContext(deps, req);
      if (!ctx.user) throw appError('UNAUTHORIZED', 'Please sign in to continue.');
      const { name } = req.params;
      const notFound = () => appError('NOT_FOUND', 'File not found.');
      if (!NAME_PATTERN.test(name)) throw notFound();
      const user = ctx.user;
      let allowed = false;
      if (name.startsWith('fuel-photo-')) {
        allowed = ['ADMIN', 'OPS', 'FUEL'].includes(user.role);
      } else if (user.role === 'ADMIN') {
        allowed = true;
      } else if (user.role === 'DRIVER' && user.driverId) {
        const [own] = await ctx.db
          .select({ id: drivers.id })
          .from(drivers)
          .where(or(eq(drivers.nationalIdPath, name), eq(drivers.photoPath, name)))
          .limit(1);
        allowed = own?.id === user.driverId;
      }
      if (name.startsWith('fuel-photo-') && allowed) {
        const [log] = await ctx.db
          .select({ id: fuelLogs.id })
          .from(fuelLogs)
          .where(eq(fuelLogs.photoPath, name))
          .limit(1);
        if (!log) throw notFound();
      }
      if (!allowed) throw notFound();
      const file = await readFile(join(uploadsDir(deps.config), name)).catch(() => {
        throw notFound();
      });
      return reply
        .header('content-type', 'image/jpeg')
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .send(file);
    } catch (err) {
      const http = toHttpError(err);
      return reply.code(http.status).send(http.body);
    }
  });
}
