/**
 * Every status and code the database stores, declared once. The zod schemas (shared/schemas), the Drizzle
 * schema (drizzle/schema.ts: its column types and CHECK constraints), the SQL in core/ (through
 * drizzle/sql-lists.ts), the client's labels (client/i18n: a label map keyed by the same tuple, so a new
 * value without a label fails typecheck) and the OpenAPI document (generated from zod) all take them
 * from here. Roles live in shared/roles.ts with the routes they open.
 */

// ── Orders ────────────────────────────────────────────────────────────────────────────────────────────

/** An order's life (labels in the spec; DESIGN.md "Decisions the spec leaves open"). */
export const ORDER_STATUSES = [
  'AWAITING_PAYMENT',
  'PAYMENT_REVIEW',
  'RECEIVED',
  'IN_TRANSIT',
  'DELIVERED',
  'CANCELLED',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Orders not yet delivered or cancelled: the dashboard's pending count (and the partial index orders_open_idx). */
export const OPEN_ORDER_STATUSES = [
  'AWAITING_PAYMENT',
  'PAYMENT_REVIEW',
  'RECEIVED',
  'IN_TRANSIT',
] as const satisfies readonly OrderStatus[];
/** Delivered or cancelled: nothing more happens to the order (no code, no site change, no new load). */
export const isClosedOrder = (status: string) => status === 'DELIVERED' || status === 'CANCELLED';

/** Orders that still take a payment confirmation: before ops confirmed a payment. */
export const UNPAID_ORDER_STATUSES = [
  'AWAITING_PAYMENT',
  'PAYMENT_REVIEW',
] as const satisfies readonly OrderStatus[];
export const isUnpaidOrder = (status: string) =>
  (UNPAID_ORDER_STATUSES as readonly string[]).includes(status);

/** An order's payment, as its list shows it: PENDING → SUBMITTED → CONFIRMED | REJECTED. */
export const ORDER_PAYMENT_STATUSES = ['PENDING', 'SUBMITTED', 'CONFIRMED', 'REJECTED'] as const;
export type OrderPaymentStatus = (typeof ORDER_PAYMENT_STATUSES)[number];
/** No payment under review or confirmed: none sent yet, or the last one rejected. */
export const PAYMENT_DUE_STATUSES = ['PENDING', 'REJECTED'] as const satisfies readonly OrderPaymentStatus[];
export const isPaymentDue = (paymentStatus: string) =>
  (PAYMENT_DUE_STATUSES as readonly string[]).includes(paymentStatus);

export const SAND_TYPES = ['coarse', 'smooth'] as const;
export type SandType = (typeof SAND_TYPES)[number];

/** Where an order's distance came from (DESIGN.md, Pricing). */
export const DISTANCE_SOURCES = ['manual', 'geocoded', 'heuristic', 'default'] as const;
export type DistanceSource = (typeof DISTANCE_SOURCES)[number];

/** Where an order's site point came from (issue 16). */
export const SITE_SOURCES = ['geocoder', 'gazetteer', 'pin', 'link', 'driver'] as const;
export type SiteSource = (typeof SITE_SOURCES)[number];

// ── Loads (assignments) ───────────────────────────────────────────────────────────────────────────────

export const ASSIGNMENT_STATUSES = ['SCHEDULED', 'IN_TRANSIT', 'ARRIVED', 'DELIVERED', 'CANCELLED'] as const;
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

/** A load still to deliver: scheduled, on the road, or at the site (partial index assignments_active_idx). */
export const OPEN_LOAD_STATUSES = [
  'SCHEDULED',
  'IN_TRANSIT',
  'ARRIVED',
] as const satisfies readonly AssignmentStatus[];
export type OpenLoadStatus = (typeof OPEN_LOAD_STATUSES)[number];
export const isOpenLoad = (status: string) => (OPEN_LOAD_STATUSES as readonly string[]).includes(status);

/** A load out of the yard: on the road or at the site (its truck's position is shown; the order is in transit). */
export const OUT_LOAD_STATUSES = ['IN_TRANSIT', 'ARRIVED'] as const satisfies readonly AssignmentStatus[];
export const isLoadOut = (status: string) => (OUT_LOAD_STATUSES as readonly string[]).includes(status);

/**
 * A truck "with a load" for the idle rule (shared/domain/telemetry.ts `isIdle`): its load waits at the
 * yard or is on the road. A truck that has ARRIVED stands still at the site by design (unloading), so it
 * is left out.
 */
export const IDLE_WATCH_LOAD_STATUSES = [
  'SCHEDULED',
  'IN_TRANSIT',
] as const satisfies readonly AssignmentStatus[];

/** Who moved a load: a geofence, a person by hand, or a proof of delivery. */
export const LOAD_EVENT_SOURCES = ['geofence', 'manual', 'proof'] as const;
export type LoadEventSource = (typeof LOAD_EVENT_SOURCES)[number];

/** How a delivery was proved: the customer's code, or (failing it) the receiver's name. */
export const DELIVERY_PROOF_METHODS = ['code', 'receiver'] as const;
export type DeliveryProofMethod = (typeof DELIVERY_PROOF_METHODS)[number];

export const GEOFENCE_EVENT_KINDS = ['YARD_EXIT', 'SITE_ENTRY', 'SITE_EXIT', 'YARD_ENTRY'] as const;
export type GeofenceEventKind = (typeof GEOFENCE_EVENT_KINDS)[number];

// ── Payments ──────────────────────────────────────────────────────────────────────────────────────────

/** One payment row: a confirmation under review, or confirmed / rejected. */
export const PAYMENT_STATUSES = ['SUBMITTED', 'CONFIRMED', 'REJECTED'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** Who told us of a payment: the customer, ops, or M-Pesa itself. */
export const PAYMENT_SOURCES = ['CUSTOMER', 'OPS', 'MPESA_C2B', 'MPESA_STK'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

export const MPESA_CALLBACK_KINDS = ['STK', 'C2B_VALIDATION', 'C2B_CONFIRMATION', 'STK_QUERY'] as const;
export type MpesaCallbackKind = (typeof MPESA_CALLBACK_KINDS)[number];

export const STK_REQUEST_STATUSES = ['PENDING', 'PAID', 'FAILED'] as const;
export type StkRequestStatus = (typeof STK_REQUEST_STATUSES)[number];

// ── Yard, costs, fuel ─────────────────────────────────────────────────────────────────────────────────

export const STOCK_TX_KINDS = ['RECEIPT', 'DELIVERY', 'ADJUSTMENT'] as const;
export type StockTxKind = (typeof STOCK_TX_KINDS)[number];

export const COST_TYPES = [
  'FUEL',
  'SALARY',
  'REPAIR',
  'MAINTENANCE',
  'LOADING',
  'OFFLOADING',
  'STOCK_PURCHASE',
  'OTHER',
] as const;
export type CostType = (typeof COST_TYPES)[number];

/** Where a cost came from: typed in, a fuel log's linked cost, or a stock receipt's purchase. */
export const COST_SOURCES = ['MANUAL', 'FUEL', 'STOCK'] as const;
export type CostSource = (typeof COST_SOURCES)[number];

export const FUEL_ANOMALY_KINDS = [
  'ODOMETER_BACKWARDS',
  'OVER_TANK_CAPACITY',
  'CONSUMPTION_OUTLIER',
  'ODOMETER_GPS_MISMATCH',
  'TRUCK_MOVING',
] as const;
export type FuelAnomalyKind = (typeof FUEL_ANOMALY_KINDS)[number];

export const FUEL_ANOMALY_STATUSES = ['open', 'reviewed', 'dismissed'] as const;
export type FuelAnomalyStatus = (typeof FUEL_ANOMALY_STATUSES)[number];

/** Axle counts a truck may have: which gross weight limit applies (issue 17). */
export const AXLE_COUNTS = [2, 3, 4] as const;
export type AxleCount = (typeof AXLE_COUNTS)[number];

// ── Alerts, AI, people ────────────────────────────────────────────────────────────────────────────────

export const ALERT_DELIVERY_STATUSES = ['PENDING', 'SENDING', 'SENT', 'RECORDED', 'FAILED'] as const;
export type AlertDeliveryStatus = (typeof ALERT_DELIVERY_STATUSES)[number];

/** Who wrote a text: a language model, the rules over the business's own data, or a person. */
export const ARTICLE_GENERATORS = ['llm', 'rules', 'manual'] as const;
export type ArticleGenerator = (typeof ARTICLE_GENERATORS)[number];
export const INSIGHT_GENERATORS = ['llm', 'rules'] as const satisfies readonly ArticleGenerator[];
export type InsightGenerator = (typeof INSIGHT_GENERATORS)[number];

/** The screens' languages: English and Kiswahili (both as written in Kenya). */
export const LANGUAGES = ['en', 'sw'] as const;
export type Language = (typeof LANGUAGES)[number];

// ── Invoices and KRA eTIMS (issue 23) ─────────────────────────────────────────────────────────────────

/** A sale (S) or a credit note (R), as KRA's receipt types name them. */
export const INVOICE_KINDS = ['S', 'R'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/**
 * Where an invoice stands with KRA: `off` (eTIMS not configured: a receipt only), `pending` (waiting its
 * turn, or KRA unreachable), `sent` (sent without a definite answer: asked about before it is sent again),
 * `signed` (KRA accepted it), `failed` (KRA refused it, with its code and message).
 */
export const INVOICE_STATUSES = ['off', 'pending', 'sent', 'signed', 'failed'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
/** Not yet signed by KRA: the delivery queue, in number order (partial index invoices_unsigned_idx). */
export const UNSIGNED_INVOICE_STATUSES = [
  'pending',
  'sent',
  'failed',
] as const satisfies readonly InvoiceStatus[];

/** What made the invoice: a cash order paid in full, or (issue 24) a delivered load of an account on terms. */
export const INVOICE_SOURCES = ['order', 'load'] as const;
export type InvoiceSource = (typeof INVOICE_SOURCES)[number];

/** The stock movement that follows a signed sale: none to send, waiting, sent, or refused. */
export const INVOICE_STOCK_STATUSES = ['none', 'pending', 'done', 'failed'] as const;
export type InvoiceStockStatus = (typeof INVOICE_STOCK_STATUSES)[number];

/**
 * The eTIMS link as a whole: `off`, `ok`, `unreachable` (KRA or GavaConnect not answering: retried with
 * back-off), `credentials` (GavaConnect refused the key and secret), `device` (KRA refused the PIN, branch
 * or serial at initialisation), `blocked` (an invoice KRA refused holds back the ones after it).
 */
export const ETIMS_LINK_STATUSES = ['off', 'ok', 'unreachable', 'credentials', 'device', 'blocked'] as const;
export type EtimsLinkStatus = (typeof ETIMS_LINK_STATUSES)[number];

/** KRA's reference data cached per branch: code lists and item classifications. */
export const ETIMS_REFERENCE_KINDS = ['codes', 'item_classes'] as const;

/**
 * A job of the embedded mode's in-process runner, kept in the database so it survives a restart (issue 25):
 * `queued` (waiting for its time or a slot, or interrupted by a restart: run again), `completed` (its handler
 * finished), `failed` (its attempts spent, or a permanent failure).
 */
export const EMBEDDED_JOB_STATES = ['queued', 'completed', 'failed'] as const;
export type EmbeddedJobState = (typeof EMBEDDED_JOB_STATES)[number];

/** A backup run (issue 25): `running`, `ok` (the file is written), `failed` (with its error; an alert was raised). */
export const BACKUP_STATUSES = ['running', 'ok', 'failed'] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

// ── WhatsApp and SMS (issue 29) ─────────────────────────────────────────────────────────────────────

/** The customer rails a message goes by. */
export const MESSAGE_CHANNELS = ['WHATSAPP', 'SMS'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** From the customer (IN) or to them (OUT). */
export const MESSAGE_DIRECTIONS = ['IN', 'OUT'] as const;
export type MessageDirection = (typeof MESSAGE_DIRECTIONS)[number];

/**
 * A message's life. IN: RECEIVED. OUT: PENDING (written, its send job queued) → SENDING (a runner claimed
 * it; one whose claim is a minute old died and it is sent again) → SENT (the rail took it,
 * with its id) → DELIVERED → READ; FAILED (refused, with the rail's code: never sent again); SKIPPED (not
 * sent: the channel is off or the customer opted out).
 */
export const MESSAGE_STATUSES = [
  'RECEIVED',
  'PENDING',
  'SENDING',
  'SENT',
  'DELIVERED',
  'READ',
  'FAILED',
  'SKIPPED',
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Raw callbacks kept as they came, processed after the answer: Meta's webhook and Africa's Talking's two. */
export const INBOUND_SOURCES = ['WHATSAPP', 'SMS_DELIVERY', 'SMS_INBOUND'] as const;
export type InboundSource = (typeof INBOUND_SOURCES)[number];

/**
 * Where a WhatsApp conversation stands (shared/domain/conversation.ts): nothing asked, the site asked for,
 * the sand type, the trucks, the quote shown for confirming, the order placed and waiting for its payment.
 */
export const CONVERSATION_STATES = [
  'idle',
  'ask_site',
  'ask_sand',
  'ask_trucks',
  'confirm',
  'ordered',
] as const;
export type ConversationState = (typeof CONVERSATION_STATES)[number];
