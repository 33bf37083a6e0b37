/**
 * The screen cookie: what lets the server draw a signed-in screen with its data on a cold load (issue 28).
 *
 * A page request (a typed address, a reload, a home-screen icon) carries no Authorization header, and the
 * session's token lives in localStorage, which the server cannot see. So without more the server can only
 * send the screen's top, and the screen's data-led part (My Orders, the orders list, the trips report)
 * waits for ~180 KB of JavaScript to arrive and run: 2.6–3 s on Slow 4G with a 4× slower CPU.
 *
 * The app writes the same token into this cookie whenever it keeps or drops the session
 * (client/screen-cookie.ts), with the device's language in front, scoped to the paths of the role's own
 * screens: a request for /ops carries it, an API call, an asset or another site's link does not
 * (SameSite=Strict). The server reads it only to render that screen's page for that user
 * (server/screen-html.ts), with the same checks as an API call (expiry, revocation, a disabled account);
 * no API procedure reads it, so it opens no way in that the bearer token does not. It is not HttpOnly on
 * purpose: the app keeps it in step with localStorage, where the same token already is, so a script that
 * can read one can read the other, and Logout, a refused token or another tab signing out drop it at once,
 * even offline.
 */
import { LANGUAGES, type Language } from './enums';
import type { Role } from './roles';

export const SCREEN_COOKIE = 'mchanga_screen';

/** The screens each role opens with its data (shared/first-data.ts): the cookie's paths. */
export const SCREEN_COOKIE_PATHS: Readonly<Record<Role, readonly string[]>> = {
  ADMIN: ['/ops'],
  OPS: ['/ops'],
  DRIVER: ['/driver'],
  FUEL: ['/fuel'],
  CUSTOMER: ['/customer', '/order'],
};

/** Every path a screen cookie may be on (clearing the session clears each). */
export const ALL_SCREEN_COOKIE_PATHS: readonly string[] = [
  ...new Set(Object.values(SCREEN_COOKIE_PATHS).flat()),
];

/** Kept as long as a session's token can live; the app writes it again on every start. */
export const SCREEN_COOKIE_MAX_AGE_S = 30 * 24 * 3600;

export interface ScreenCookie {
  language: Language;
  /**
   * The device's viewport width (CSS px) when the app last wrote the cookie, so the server draws the
   * layout the device will (a table from 720 px, cards below it); 0 when unknown: drawn as on a phone.
   */
  width: number;
  token: string;
}

/** What the server draws a screen for besides the user: the device's language and viewport width. */
export type ScreenDevice = Pick<ScreenCookie, 'language' | 'width'>;

/** The widest viewport the cookie records (px); a wider one is recorded as this, which draws the same. */
export const SCREEN_COOKIE_MAX_WIDTH = 9999;

/**
 * The cookie's value: the language, a dot, the width and a dot when known, the token (a JWT's characters
 * need no escaping in a cookie). A cookie written before the width was recorded (`en.<jwt>`) still reads.
 */
export function screenCookieValue({ language, width, token }: ScreenCookie): string {
  const px = Math.min(SCREEN_COOKIE_MAX_WIDTH, Math.round(width));
  return px > 0 ? `${language}.${px}.${token}` : `${language}.${token}`;
}

/** A screen language, a dot, maybe a width and a dot, a JWT (three base64url parts). */
const COOKIE_VALUE = new RegExp(
  `^(${LANGUAGES.join('|')})\\.(?:([1-9][0-9]{0,3})\\.)?([A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+)$`,
);

/** The language, width and token of a cookie's value, or null for anything else. */
export function parseScreenCookie(value: string | undefined): ScreenCookie | null {
  if (!value) return null;
  const match = COOKIE_VALUE.exec(value);
  if (!match) return null;
  return { language: match[1] as Language, width: Number(match[2] ?? 0), token: match[3]! };
}

/** The `document.cookie` lines that set the cookie for `role`'s screens (none for an unknown role). */
export function screenCookieLines(role: string, cookie: ScreenCookie, secure: boolean): string[] {
  const paths = (SCREEN_COOKIE_PATHS as Record<string, readonly string[] | undefined>)[role] ?? [];
  const attributes = `Max-Age=${SCREEN_COOKIE_MAX_AGE_S}; SameSite=Strict${secure ? '; Secure' : ''}`;
  return paths.map((path) => `${SCREEN_COOKIE}=${screenCookieValue(cookie)}; Path=${path}; ${attributes}`);
}

/** The `document.cookie` lines that drop the cookie from every path. */
export function clearScreenCookieLines(secure: boolean): string[] {
  return ALL_SCREEN_COOKIE_PATHS.map(
    (path) => `${SCREEN_COOKIE}=; Path=${path}; Max-Age=0; SameSite=Strict${secure ? '; Secure' : ''}`,
  );
}

/** Who the server draws a signed-in screen for: the session the app keeps, without its token. */
export interface ScreenViewer {
  role: string;
  name: string;
  email: string;
  driverId: string | null;
}
