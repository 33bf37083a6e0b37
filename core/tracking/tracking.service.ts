import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { DbOrTx } from '../../drizzle/db';
import { MESSAGES } from '../../shared/constants';
import { etaMinutesFromPace, etaMinutesFromSeconds, siteRadiusFor } from '../../shared/domain/geofence';
import { parseSharedLocation } from '../../shared/domain/shared-location';
import { isClosedOrder, isLoadOut } from '../../shared/enums';
import {
  inDeliveryArea,
  type TOrderSiteInput,
  TRACKING_MESSAGES,
  type TSitePoint,
  type TTrackedLoad,
  type TTracking,
} from '../../shared/schemas/tracking';
import type { Settings } from '../../shared/settings';
import type { CtxUser } from '../access/actor';
import { mayReadOrder } from '../access/rules';
import { recordChange } from '../activity/activity';
import { consume, RateLimitedError } from '../auth/rate-limit';
import { appError } from '../errors';
import { orderDocuments } from '../invoices/invoices.queries';
import { lockOrder, setSitePoint } from '../orders/orders.queries';
import { routeSeconds } from '../pricing/distance.service';
import { orderByToken, recentAverageKmh, trackedLoads } from './tracking.queries';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;

/** How often the tracking page asks again. */
export const TRACKING_REFRESH_SECONDS = 15;
/** The window of fixes whose average speed stands for the truck's recent pace. */
export const PACE_WINDOW_MS = 15 * 60_000;

export interface TrackingDeps {
  db: DbOrTx;
  settings: Pick<Settings, 'tracking' | 'osrmUrl' | 'mapTileUrl' | 'dispatch'>;
  limiter: RateLimiterAbstract;
  fetchImpl?: typeof fetch;
}

/** A load's position is shown only while it is on the road or at the site. */
const showsPosition = isLoadOut;

/**
 * Minutes to the site for a load on the road: OSRM's driving time when configured (and answering), else
 * the straight-line distance × the road factor at the truck's recent average speed. Zero at the site;
 * undefined when it cannot be told.
 */
async function etaOf(
  deps: TrackingDeps,
  load: { status: string; truckId: string },
  from: { lat: number; lng: number } | null,
  site: { lat: number; lng: number } | null,
  now: Date,
): Promise<number | undefined> {
  if (load.status === 'ARRIVED') return 0;
  if (load.status !== 'IN_TRANSIT' || !from || !site) return undefined;
  if (deps.settings.osrmUrl) {
    const seconds = await routeSeconds(deps.fetchImpl ?? fetch, deps.settings.osrmUrl, from, site).catch(
      () => undefined,
    );
    const minutes = etaMinutesFromSeconds(seconds);
    if (minutes !== undefined) return minutes;
  }
  const kmh = await recentAverageKmh(deps.db, load.truckId, new Date(now.getTime() - PACE_WINDOW_MS));
  return etaMinutesFromPace(from, site, kmh);
}

/**
 * What anyone holding an order's tracking link sees (public, limited per address): the order's status,
 * its loads with plate and status, the truck's last position and the minutes to the site while a load is
 * on the road or at the site, and the delivered times. No costs, no customer details, and the driver's
 * phone only when TRACKING_DRIVER_PHONE allows it. An unknown token is not found.
 */
export async function trackOrder(
  deps: TrackingDeps,
  ip: string,
  token: string,
  now: Date,
): Promise<TTracking> {
  try {
    await consume(deps.limiter, ip);
  } catch (err) {
    if (err instanceof RateLimitedError)
      throw appError(
        'TOO_MANY_REQUESTS',
        MESSAGES.tooManyAttempts(Math.ceil(err.retryAfterSeconds / 60)),
        undefined,
        { 'retry-after': String(err.retryAfterSeconds) },
      );
    throw err;
  }
  // Tokens are hex or base64url; anything else (a NUL, a slash) is simply not found, never looked up.
  const order = TOKEN_SHAPE.test(token) ? await orderByToken(deps.db, token) : undefined;
  if (!order) throw appError('NOT_FOUND', TRACKING_MESSAGES.notFound);
  const site =
    order.siteLat !== null && order.siteLng !== null ? { lat: order.siteLat, lng: order.siteLng } : null;
  const rows = await trackedLoads(deps.db, order.id);
  const loads: TTrackedLoad[] = [];
  for (const r of rows) {
    const at =
      showsPosition(r.status) && r.lat !== null && r.lng !== null && r.fixTime
        ? { lat: r.lat, lng: r.lng }
        : null;
    const eta = await etaOf(deps, r, at, site, now);
    loads.push({
      id: r.id,
      plate: r.plate,
      status: r.status,
      tonnes: r.tonnes,
      scheduledAt: r.scheduledAt?.toISOString() ?? null,
      inTransitAt: r.inTransitAt?.toISOString() ?? null,
      arrivedAt: r.arrivedAt?.toISOString() ?? null,
      deliveredAt: r.deliveredAt?.toISOString() ?? null,
      ...(at
        ? {
            position: {
              ...at,
              heading: r.heading,
              speedKmh: r.speedKmh,
              at: r.fixTime!.toISOString(),
            },
          }
        : {}),
      ...(eta !== undefined ? { etaMinutes: eta } : {}),
      driverName: r.driverName?.split(/\s+/)[0] ?? null,
      ...(deps.settings.tracking.showDriverPhone && r.driverPhone && r.status !== 'DELIVERED'
        ? { driverPhone: r.driverPhone }
        : {}),
    });
  }
  return {
    orderId: order.id,
    status: order.status,
    site: order.site,
    sitePoint:
      site && order.siteRadiusM !== null && order.siteSource
        ? { ...site, radiusM: order.siteRadiusM, source: order.siteSource }
        : null,
    sandType: order.sandType,
    trucks: order.trucks,
    dateNeeded: order.dateNeeded ?? null,
    deliveryCode: order.deliveryCode,
    loads,
    asOf: now.toISOString(),
    refreshSeconds: TRACKING_REFRESH_SECONDS,
    tileUrl: deps.settings.mapTileUrl,
    dispatch: { phone: deps.settings.dispatch.phone, whatsapp: deps.settings.dispatch.whatsapp },
    ...(await trackedDocuments(deps.db, order)),
  };
}

/** The receipt and credit notes of a tracked order (the token in their links is the page's own). */
async function trackedDocuments(db: DbOrTx, order: { id: number; trackingToken: string }) {
  const { receiptUrl, creditNotes } = (await orderDocuments(db, [order])).get(order.id)!;
  return { receiptUrl, creditNotes };
}

/**
 * The customer refines their order's site: a pin (lat and lng) or a pasted shared location (a geo: URI, a
 * Google or Apple Maps link, coordinates). Short links hide the point and are refused with what to do
 * instead; points outside Kenya are refused. A customer reaches only their own orders (another's is not
 * found); ADMIN and OPS any. A delivered or cancelled order's site no longer changes. The geofence watches
 * the new point from the next fix.
 */
export async function setOrderSite(
  db: DbOrTx,
  settings: Pick<Settings, 'tracking'>,
  user: CtxUser,
  input: TOrderSiteInput,
  now: Date,
): Promise<TSitePoint> {
  let point: { lat: number; lng: number };
  let source: 'pin' | 'link';
  if (input.shared !== undefined) {
    const parsed = parseSharedLocation(input.shared);
    if (parsed.kind === 'short-link') throw appError('BAD_REQUEST', TRACKING_MESSAGES.shortLinkFailed);
    if (parsed.kind === 'unreadable') throw appError('BAD_REQUEST', TRACKING_MESSAGES.siteUnreadable);
    point = { lat: parsed.lat, lng: parsed.lng };
    source = 'link';
  } else {
    point = { lat: input.lat!, lng: input.lng! };
    source = 'pin';
  }
  if (!inDeliveryArea(point)) throw appError('BAD_REQUEST', TRACKING_MESSAGES.outsideKenya);
  const radiusM = siteRadiusFor(source, settings.tracking.siteRadiusM);
  await db.transaction(async (tx) => {
    const order = await lockOrder(tx, input.id);
    if (!order || !mayReadOrder(user, order)) throw appError('NOT_FOUND', TRACKING_MESSAGES.orderNotFound);
    if (isClosedOrder(order.status)) throw appError('CONFLICT', TRACKING_MESSAGES.siteClosed);
    await setSitePoint(tx, order.id, { ...point, radiusM, source }, now);
    await recordChange(tx, {
      entity: 'order',
      entityId: order.id,
      before: { siteLat: order.siteLat, siteLng: order.siteLng, siteSource: order.siteSource },
      after: { siteLat: point.lat, siteLng: point.lng, siteSource: source },
    });
  });
  return { ...point, radiusM, source };
}
