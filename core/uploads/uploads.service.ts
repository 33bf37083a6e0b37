import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import type { DbOrTx } from '../../drizzle/db';
import type { UploadOwner } from '../access/rules';
import { appError } from '../errors';
import type { UploadStore } from './storage';
import { deliveryPhotoDriver, driverOwningFile, fuelLogHasPhoto } from './uploads.queries';

export {
  migrateFilesToDatabase,
  type UploadConfig,
  type UploadStore,
  uploadStore,
  uploadsDir,
} from './storage';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const UPLOAD_MESSAGES = {
  notImage: 'Only images can be uploaded.',
  tooLarge: 'Images must be 5 MB or smaller.',
} as const;

export type UploadKind = 'national-id' | 'driver-photo' | 'fuel-photo' | 'delivery-photo';
const ALLOWED_FORMATS = new Set(['jpeg', 'png', 'webp']);
export const NAME_PATTERN = /^(national-id|driver-photo|fuel-photo|delivery-photo)-[a-f0-9]{32}\.jpg$/;

/**
 * Stores an image sent as a data URL. The bytes decide, not the declared type: only real JPEG, PNG
 * or WebP images of at most 5 MB are kept, re-encoded as JPEG, which drops EXIF and GPS metadata.
 * Returns the stored file name (random, so names cannot be guessed).
 */
export async function storeImage(store: UploadStore, dataUrl: string, kind: UploadKind): Promise<string> {
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
  await store.put(name, output, 'image/jpeg');
  return name;
}

/**
 * Deletes stored uploads: the files an edit replaced, or new ones whose save failed. Names that are not
 * upload names are ignored (they come from rows, never from a path), and a file already gone is fine.
 */
export async function removeUploads(
  store: UploadStore,
  names: readonly (string | null | undefined)[],
): Promise<void> {
  // Best effort: a file left behind is unreachable (nothing references it), never a failed request.
  await store
    .remove(names.filter((name): name is string => !!name && NAME_PATTERN.test(name)))
    .catch(() => undefined);
}

/** For a failed save's `.catch`: removes the files stored for it, then fails as it did. */
export function discardUploads(
  store: UploadStore,
  stored: readonly (string | null | undefined)[],
): (err: unknown) => Promise<never> {
  return async (err) => {
    await removeUploads(store, stored);
    throw err;
  };
}

/**
 * Saves a row that references freshly stored images: when `save` fails the new files are removed; when it
 * succeeds the files it replaced (what `save` returns in `replaced`) are. No upload is left orphaned.
 */
export async function withUploads<T>(
  store: UploadStore,
  stored: readonly (string | null | undefined)[],
  save: () => Promise<{ result: T; replaced?: readonly (string | null | undefined)[] }>,
): Promise<T> {
  let saved: Awaited<ReturnType<typeof save>>;
  try {
    saved = await save();
  } catch (err) {
    await removeUploads(store, stored);
    throw err;
  }
  await removeUploads(store, saved.replaced ?? []);
  return saved.result;
}

/**
 * What a stored file belongs to, as the rows say: the fuel log, the load or the driver that references
 * it (undefined for a fuel or delivery photo nothing references). Who may read it is `mayReadUpload` in
 * core/access.
 */
export async function uploadOwner(db: DbOrTx, name: string): Promise<UploadOwner | undefined> {
  if (name.startsWith('fuel-photo-'))
    return (await fuelLogHasPhoto(db, name)) ? { kind: 'fuel-photo' } : undefined;
  if (name.startsWith('delivery-photo-')) {
    const load = await deliveryPhotoDriver(db, name);
    return load && { kind: 'delivery-photo', driverId: load.driverId };
  }
  return { kind: 'driver-document', driverId: (await driverOwningFile(db, name)) ?? null };
}
