/**
 * Keeps the screen cookie (shared/screen-cookie.ts) in step with the session in localStorage: the same
 * token, for the role's own screens, with the device's language and viewport width. Written when the
 * session is kept, on every start, when the language changes and when the viewport's width does (a phone
 * turned, a window resized); dropped from every path when the session goes, or when it may only open the
 * password screen.
 */
import { clearScreenCookieLines, type ScreenDevice, screenCookieLines } from '../shared/screen-cookie';

export interface CookieSession {
  token: string;
  role: string;
  mustChangePassword: boolean;
}

/** Writes (or drops) the cookie; `doc` is `document` in the app. Never throws: without it pages render as before. */
export function keepScreenCookie(
  session: CookieSession | null,
  device: ScreenDevice,
  doc: { cookie: string; location?: { protocol: string } } | undefined = globalThis.document,
): void {
  if (!doc) return;
  const secure = doc.location?.protocol === 'https:';
  try {
    // Dropped first from every path, so a role change (another account on this phone) leaves no old one.
    for (const line of clearScreenCookieLines(secure)) doc.cookie = line;
    if (!session || session.mustChangePassword) return;
    for (const line of screenCookieLines(session.role, { ...device, token: session.token }, secure))
      doc.cookie = line;
  } catch {
    // A browser refusing cookies: the screens render their data themselves, as before.
  }
}
