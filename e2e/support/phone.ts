import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { adminTokenFor } from './admin';
import { CHROMIUM_PATH } from './browser';
import { ADMIN_EMAIL, ADMIN_PASSWORD, startApp } from './global-app';

export const PHONE_360 = { width: 360, height: 740 };

/** An app of the file's own (a clean database), its ADMIN's token, and phones whose profiles live on disk. */
export interface Phones {
  baseURL: string;
  adminToken: string;
  /** A new profile directory, removed by `stop()`. */
  newProfile(): string;
  /** A phone (360 px, touch) on this profile: what it keeps (IndexedDB, the service worker) survives a close. */
  launch(profileDir: string): Promise<BrowserContext>;
  /** Stops the app and removes the profiles. */
  stop(): Promise<void>;
}

async function startPhones(): Promise<Phones> {
  const app = await startApp();
  let adminToken: string;
  try {
    adminToken = await adminTokenFor(app.baseURL, ADMIN_EMAIL, ADMIN_PASSWORD);
  } catch (err) {
    await app.stop();
    throw err;
  }
  const profileDirs: string[] = [];
  return {
    baseURL: app.baseURL,
    adminToken,
    newProfile() {
      const dir = mkdtempSync(join(tmpdir(), 'mchanga-phone-'));
      profileDirs.push(dir);
      return dir;
    },
    launch(profileDir) {
      return chromium.launchPersistentContext(profileDir, {
        executablePath: CHROMIUM_PATH,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
        headless: true,
        baseURL: app.baseURL,
        viewport: PHONE_360,
        isMobile: true,
        hasTouch: true,
      });
    },
    async stop() {
      await app.stop();
      for (const dir of profileDirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The file's phones, started in its beforeAll (the app takes a while) and stopped in its afterAll; the
 * handle is used inside the tests.
 */
export function phonesForThisFile(): Omit<Phones, 'stop'> {
  let started: Phones | undefined;
  beforeAll(async () => {
    started = await startPhones();
  }, 180_000);
  afterAll(async () => {
    await started?.stop();
  });
  const get = () => {
    if (!started) throw new Error('The phones start in beforeAll: use them inside a test.');
    return started;
  };
  return {
    get baseURL() {
      return get().baseURL;
    },
    get adminToken() {
      return get().adminToken;
    },
    newProfile: () => get().newProfile(),
    launch: (profileDir) => get().launch(profileDir),
  };
}

/** Entries in the device outbox (IndexedDB), read in the page. */
export function outboxCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('mchanga-outbox');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('entries')) return resolve(0);
          const req = db.transaction('entries').objectStore('entries').count();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        };
      }),
  );
}
