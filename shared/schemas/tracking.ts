import { z } from 'zod';
import { ASSIGNMENT_STATUSES, SITE_SOURCES } from '../enums';
import { blankToUndefined, zIntId, zText } from './common';
import { orderDocumentFields } from './invoices';
import { ZOrderStatus, ZSandType } from './orders';

export const TRACKING_MESSAGES = {
  notFound: 'Tracking link not found.',
  orderNotFound: 'Order not found.',
  siteRequired: 'Drop a pin on the site, or paste a location shared from your maps app.',
  siteUnreadable:
    'That is not a location we can read. Paste a link shared from Google Maps or Apple Maps, a geo: link, or the coordinates.',
  shortLinkFailed:
    'That short link could not be opened. Open it in your maps app and share the coordinates, or drop a pin.',
  outsideKenya: 'Put the site in Kenya: that point is outside the area we deliver to.',
  siteClosed: 'This order is delivered or cancelled; its site can no longer change.',
} as const;

/** Kenya with a margin: a point outside is a mistake (0,0, a swapped pair), never a site. */
export const DELIVERY_AREA = { minLat: -5, maxLat: 5.5, minLng: 33.5, maxLng: 42.5 } as const;

export function inDeliveryArea(p: { lat: number; lng: number }): boolean {
  return (
    p.lat >= DELIVERY_AREA.minLat &&
    p.lat <= DELIVERY_AREA.maxLat &&
    p.lng >= DELIVERY_AREA.minLng &&
    p.lng <= DELIVERY_AREA.maxLng
  );
}

const coordinate = (max: number) =>
  z.preprocess(blankToUndefined, z.coerce.number().min(-max).max(max).optional());

/** A pin (lat and lng) or a pasted shared location (a geo: URI, a Google or Apple Maps link, coordinates). */
const siteFields = {
  lat: coordinate(90),
  lng: coordinate(180),
  shared: z.preprocess(blankToUndefined, zText({ label: 'Shared location', max: 2000 }).optional()),
};
const pinOrShared = (v: {
  lat?: number | undefined;
  lng?: number | undefined;
  shared?: string | undefined;
}) => v.shared !== undefined || (v.lat !== undefined && v.lng !== undefined);

export const ZOrderSiteInput = z
  .object({ id: zIntId(TRACKING_MESSAGES.orderNotFound), ...siteFields })
  .refine(pinOrShared, { message: TRACKING_MESSAGES.siteRequired, path: ['shared'] });
export type TOrderSiteInput = z.infer<typeof ZOrderSiteInput>;

/** Tokens are 32 hex digits or 22 base64url characters; anything else is simply not found. */
const ZToken = z.string().max(100);

export const ZTrackSiteInput = z
  .object({ token: ZToken, ...siteFields })
  .refine(pinOrShared, { message: TRACKING_MESSAGES.siteRequired, path: ['shared'] });
export type TTrackSiteInput = z.infer<typeof ZTrackSiteInput>;

export const ZTrackingInput = z.object({ token: ZToken });

export const ZSiteSource = z.enum(SITE_SOURCES);

/** An order's site point and its geofence, as the order listings and the tracking page carry it. */
export const ZSitePoint = z.object({
  lat: z.number(),
  lng: z.number(),
  radiusM: z.number(),
  source: ZSiteSource,
});
export type TSitePoint = z.infer<typeof ZSitePoint>;

export const ZTrackedLoad = z.object({
  id: z.number(),
  plate: z.string().nullable(),
  status: z.enum(ASSIGNMENT_STATUSES),
  tonnes: z.number(),
  scheduledAt: z.string().nullable(),
  inTransitAt: z.string().nullable(),
  arrivedAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
  /** The truck's last position: only while the load is in transit or at the site. */
  position: z
    .object({
      lat: z.number(),
      lng: z.number(),
      heading: z.number().nullable(),
      speedKmh: z.number().nullable(),
      at: z.string(),
    })
    .optional(),
  /** Minutes to the site while in transit (OSRM, else distance × road factor ÷ recent pace); absent when unknown. */
  etaMinutes: z.number().int().min(0).optional(),
  /** The driver's first name; the phone only when TRACKING_DRIVER_PHONE allows it. */
  driverName: z.string().nullable(),
  driverPhone: z.string().optional(),
});
export type TTrackedLoad = z.infer<typeof ZTrackedLoad>;

/** What anyone holding the link sees: no costs, no customer details, no driver phone unless allowed. */
export const ZTracking = z.object({
  orderId: z.number(),
  status: ZOrderStatus,
  site: z.string(),
  sitePoint: ZSitePoint.nullable(),
  sandType: ZSandType,
  trucks: z.number(),
  dateNeeded: z.string().nullable(),
  /** The code the customer gives the driver to prove the delivery. */
  deliveryCode: z.string(),
  loads: z.array(ZTrackedLoad),
  /** The server's clock, and how often the page asks again. */
  asOf: z.string(),
  refreshSeconds: z.number(),
  /** The map's tile server (MAP_TILE_URL), so the public page needs no sign-in for its map. */
  tileUrl: z.string(),
  /** The dispatch office to call or WhatsApp about the order (DISPATCH_PHONE, DISPATCH_WHATSAPP). */
  dispatch: z.object({ phone: z.string(), whatsapp: z.string() }),
  /** The receipt (tax invoice) PDF once the order is paid, and its credit notes (issue 23). */
  receiptUrl: orderDocumentFields.receiptUrl,
  creditNotes: orderDocumentFields.creditNotes,
});
export type TTracking = z.infer<typeof ZTracking>;

export const trackingPath = (token: string) => `/track/${token}`;
