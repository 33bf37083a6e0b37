import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import type { DbOrTx } from '../drizzle/db';
import { MESSAGES } from '../shared/constants';
import type { Settings } from '../shared/settings';
import { type AppDeps, type CtxUser, createRequestContext } from './context';
import { appError } from './errors';
import { deliveryPhotoDriver, driverOwningFile, fuelLogHasPhoto } from './uploads.queries';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MESSAGES = {
  notImage: 'Only images can be uploaded.',
  tooLarge: 'Images must be 5 MB or smaller.',
} as const;

export type UploadKind = 'national-id' | 'driver-photo' | 'fuel-photo' | 'delivery-photo';
const ALLOWED_FORMATS = new Set(['jpeg', 'png', 'webp']);
const NAME_PATTERN = /^(national-id|driver-photo|fuel-photo|delivery-photo)-[a-f0-9]{32}\.jpg$/;

export function uploadsDir(config: Pick<Settings, 'dataDir'>): string {
  return join(config.dataDir, 'uploads');
}

/**
 * Stores an image sent as a data URL. The bytes decide, not the declared type: only real JPEG, PNG
 * or WebP images of at most 5 MB are kept, re-encoded as JPEG, which drops EXIF and GPS metadata.
 * Returns the stored file name (random, so names cannot be guessed).
 */
export async function storeImage(
  config: Pick<Settings, 'dataDir'>,
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
 * Deletes stored uploads: the files an edit replaced, or new ones whose save failed. Names that are not
 * upload names are ignored (they come from rows, never from a path), and a file already gone is fine.
 */
export async function removeUploads(
  config: Pick<Settings, 'dataDir'>,
  names: readonly (string | null | undefined)[],
): Promise<void> {
  await Promise.all(
    names
      .filter((name): name is string => !!name && NAME_PATTERN.test(name))
      .map((name) => rm(join(uploadsDir(config), name), { force: true }).catch(() => undefined)),
  );
}

/** For a failed save's `.catch`: removes the files stored for it, then fails as it did. */
export function discardUploads(
  config: Pick<Settings, 'dataDir'>,
  stored: readonly (string | null | undefined)[],
): (err: unknown) => Promise<never> {
  return async (err) => {
    await removeUploads(config, stored);
    throw err;
  };
}

/**
 * Saves a row that references freshly stored images: when `save` fails the new files are removed; when it
 * succeeds the files it replaced (what `save` returns in `replaced`) are. No upload is left orphaned.
 */
export async function withUploads<T>(
  config: Pick<Settings, 'dataDir'>,
  stored: readonly (string | null | undefined)[],
  save: () => Promise<{ result: T; replaced?: readonly (string | null | undefined)[] }>,
): Promise<T> {
  let saved: Awaited<ReturnType<typeof save>>;
  try {
    saved = await save();
  } catch (err) {
    await removeUploads(config, stored);
    throw err;
  }
  await removeUploads(config, saved.replaced ?? []);
  return saved.result;
}

/**
 * Driver documents go to ADMIN and to the driver they belong to; fuel photos to FUEL, OPS and ADMIN, and
 * only while a fuel log references them; delivery photos to ADMIN, OPS and the driver of that load.
 */
export async function mayReadUpload(db: DbOrTx, user: CtxUser, name: string): Promise<boolean> {
  if (name.startsWith('fuel-photo-'))
    return ['ADMIN', 'OPS', 'FUEL'].includes(user.role) && (await fuelLogHasPhoto(db, name));
  if (name.startsWith('delivery-photo-')) {
    const load = await deliveryPhotoDriver(db, name);
    if (!load) return false;
    if (user.role === 'ADMIN' || user.role === 'OPS') return true;
    return user.role === 'DRIVER' && !!user.driverId && load.driverId === user.driverId;
  }
  if (user.role === 'ADMIN') return true;
  if (user.role === 'DRIVER' && user.driverId) return (await driverOwningFile(db, name)) === user.driverId;
  return false;
}

/** GET /api/uploads/:name. Anyone not allowed gets 404, so a file's existence is not revealed. */
export function registerUploads(app: FastifyInstance, deps: AppDeps) {
  app.get<{ Params: { name: string } }>('/api/uploads/:name', async (req, reply) => {
    const ctx = await createRequestContext(deps, req);
    if (!ctx.user) throw appError('UNAUTHORIZED', MESSAGES.signInRequired);
    const { name } = req.params;
    const notFound = () => appError('NOT_FOUND', 'File not found.');
    if (!NAME_PATTERN.test(name) || !(await mayReadUpload(ctx.db, ctx.user, name))) throw notFound();
    const file = await readFile(join(uploadsDir(deps.settings), name)).catch(() => {
      throw notFound();
    });
    return reply
      .header('content-type', 'image/jpeg')
      .header('cache-control', 'private, max-age=3600')
      .header('x-content-type-options', 'nosniff')
      .send(file);
  });
}
