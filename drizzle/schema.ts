import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  pgView,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  ALERT_DELIVERY_STATUSES,
  ARTICLE_GENERATORS,
  ASSIGNMENT_STATUSES,
  AXLE_COUNTS,
  BACKUP_STATUSES,
  CONVERSATION_STATES,
  COST_SOURCES,
  COST_TYPES,
  DELIVERY_PROOF_METHODS,
  DISTANCE_SOURCES,
  EMBEDDED_JOB_STATES,
  ETIMS_LINK_STATUSES,
  ETIMS_REFERENCE_KINDS,
  FUEL_ANOMALY_KINDS,
  FUEL_ANOMALY_STATUSES,
  GEOFENCE_EVENT_KINDS,
  INBOUND_SOURCES,
  INSIGHT_GENERATORS,
  INVOICE_KINDS,
  INVOICE_SOURCES,
  INVOICE_STATUSES,
  INVOICE_STOCK_STATUSES,
  LANGUAGES,
  LOAD_EVENT_SOURCES,
  MESSAGE_CHANNELS,
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  MPESA_CALLBACK_KINDS,
  OPEN_LOAD_STATUSES,
  OPEN_ORDER_STATUSES,
  ORDER_PAYMENT_STATUSES,
  ORDER_STATUSES,
  PAYMENT_SOURCES,
  PAYMENT_STATUSES,
  SAND_TYPES,
  SITE_SOURCES,
  STK_REQUEST_STATUSES,
  STOCK_TX_KINDS,
  UNSIGNED_INVOICE_STATUSES,
} from '../shared/enums';
import { ROLES } from '../shared/roles';
import { inList } from './sql-lists';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const drivers = pgTable('drivers', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email'),
  phone: text('phone'),
  nationalIdPath: text('national_id_path'),
  photoPath: text('photo_path'),
  ...timestamps,
});

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    role: text('role', { enum: ROLES }).notNull(),
    driverId: text('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    passwordHash: text('password_hash').notNull(),
    /** Bumped on password change, logout-everywhere and disabling: every older token stops working. */
    tokenVersion: integer('token_version').notNull().default(0),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Telegram chat for alerts (ADMIN and OPS); numeric, groups start with -100. */
    telegramChatId: text('telegram_chat_id'),
    /** The screens' language: en (English) or sw (Kiswahili); applied at sign-in. */
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    /** Set by an ADMIN's reset to a one-time password: the next sign-in must choose a new one. */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    check('users_role_check', inList(t.role, ROLES)),
    check('users_language_check', inList(t.language, LANGUAGES)),
  ],
);

export const trucks = pgTable(
  'trucks',
  {
    id: text('id').primaryKey(),
    plate: text('plate').notNull(),
    capacityT: numeric('capacity_t', { precision: 8, scale: 2, mode: 'number' }).notNull().default(20),
    primaryDriverId: text('primary_driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    /** The tracker or phone (Traccar Client) identifier that reports this truck's positions. */
    deviceId: text('device_id'),
    /** Axles (2, 3 or 4): which gross weight limit applies (gross_limits, issue 17). */
    axles: integer('axles').notNull().default(3),
    /** The empty truck's weight in tonnes; unknown (null) skips the legal-weight check. */
    tareT: numeric('tare_t', { precision: 8, scale: 2, mode: 'number' }),
    /** Fuel tank capacity in litres; a fill above it is a fuel anomaly. */
    tankCapacityL: numeric('tank_capacity_l', { precision: 8, scale: 1, mode: 'number' }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('trucks_device_key').on(t.deviceId),
    check('trucks_capacity_check', sql`${t.capacityT} >= 1`),
    check('trucks_axles_check', inList(t.axles, AXLE_COUNTS)),
    check('trucks_tare_check', sql`${t.tareT} is null or ${t.tareT} > 0`),
    check('trucks_tank_check', sql`${t.tankCapacityL} is null or ${t.tankCapacityL} > 0`),
    index('trucks_primary_driver_idx').on(t.primaryDriverId),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: serial('id').primaryKey(),
    customerId: integer('customer_id').references(() => users.id, { onDelete: 'set null' }),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    site: text('site').notNull(),
    sandType: text('sand_type', { enum: SAND_TYPES }).notNull(),
    trucks: integer('trucks').notNull(),
    perTruckCents: bigint('per_truck_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    distanceKm: numeric('distance_km', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    distanceSource: text('distance_source', { enum: DISTANCE_SOURCES }).notNull(),
    dateNeeded: date('date_needed', { mode: 'string' }),
    /** True when an admin replaced the distance price with a per-truck override. */
    priceOverridden: boolean('price_overridden').notNull().default(false),
    /** The customer asks for an overnight pour: loads outside the transport window are expected. */
    overnightPour: boolean('overnight_pour').notNull().default(false),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('AWAITING_PAYMENT'),
    paymentStatus: text('payment_status', { enum: ORDER_PAYMENT_STATUSES }).notNull().default('PENDING'),
    /**
     * The site's point and geofence radius: from the geocoder or the gazetteer at order time, refined by
     * the customer's pin or shared location, or set by the driver's first stop there (issue 16).
     */
    siteLat: doublePrecision('site_lat'),
    siteLng: doublePrecision('site_lng'),
    siteRadiusM: integer('site_radius_m'),
    siteSource: text('site_source', { enum: SITE_SOURCES }),
    siteSetAt: timestamp('site_set_at', { withTimezone: true }),
    /** The customer's tracking link, /track/{token}: unguessable (122 random bits for older orders, 128 for new). */
    trackingToken: text('tracking_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /** The 4-digit code the customer gives the driver to prove a delivery. */
    deliveryCode: text('delivery_code')
      .notNull()
      .default(sql`lpad(floor(random() * 10000)::int::text, 4, '0')`),
    /** Wrong delivery codes tried on this order; past the limit only a receiver's name (flagged) will do. */
    deliveryCodeFailures: integer('delivery_code_failures').notNull().default(0),
    /** The buyer's KRA PIN, when given: printed on the tax invoice and sent to eTIMS (issue 23). */
    customerPin: text('customer_pin'),
    /**
     * An order of an account on credit terms (issue 24), set when its first load is scheduled on the
     * account's credit: each delivered load is invoiced, and payments go to the account, not the order.
     */
    onTerms: boolean('on_terms').notNull().default(false),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_tracking_token_key').on(t.trackingToken),
    check('orders_delivery_code_check', sql`${t.deliveryCode} ~ '^[0-9]{4}$'`),
    check('orders_site_source_check', inList(t.siteSource, SITE_SOURCES)),
    check('orders_customer_pin_check', sql`${t.customerPin} ~ '^[AP][0-9]{9}[A-Z]$'`),
    check('orders_trucks_check', sql`${t.trucks} between 1 and 20`),
    check('orders_sand_type_check', inList(t.sandType, SAND_TYPES)),
    check('orders_distance_source_check', inList(t.distanceSource, DISTANCE_SOURCES)),
    check('orders_status_check', inList(t.status, ORDER_STATUSES)),
    check('orders_payment_status_check', inList(t.paymentStatus, ORDER_PAYMENT_STATUSES)),
    index('orders_customer_created_idx').on(t.customerId, t.createdAt),
    index('orders_status_idx').on(t.status),
    index('orders_created_idx').on(t.createdAt),
    /** Open orders only (a few thousand of millions): the dashboard counts them index-only. */
    index('orders_open_idx').on(t.id).where(inList(t.status, OPEN_ORDER_STATUSES)),
  ],
);

export const assignments = pgTable(
  'assignments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id),
    driverId: text('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    tonnes: numeric('tonnes', { precision: 8, scale: 2, mode: 'number' }).notNull().default(20),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    status: text('status', { enum: ASSIGNMENT_STATUSES }).notNull().default('SCHEDULED'),
    inTransitAt: timestamp('in_transit_at', { withTimezone: true }),
    /** When the truck entered the site (its geofence, or a manual move). */
    arrivedAt: timestamp('arrived_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** ADMIN scheduled this load (after confirming) while the order's payment was not yet confirmed. */
    scheduledBeforePayment: boolean('scheduled_before_payment').notNull().default(false),
    /** ADMIN scheduled this load above the truck's legal gross weight, and why (issue 17). */
    overrideLegalLimit: boolean('override_legal_limit').notNull().default(false),
    overrideReason: text('override_reason'),
    /** ADMIN scheduled this load past the account's credit limit, and why (issue 24). */
    overrideCreditLimit: boolean('override_credit_limit').notNull().default(false),
    creditOverrideReason: text('credit_override_reason'),
    ...timestamps,
  },
  (t) => [
    check('assignments_tonnes_check', sql`${t.tonnes} > 0`),
    check('assignments_status_check', inList(t.status, ASSIGNMENT_STATUSES)),
    index('assignments_order_idx').on(t.orderId),
    index('assignments_truck_idx').on(t.truckId),
    index('assignments_driver_idx').on(t.driverId),
    index('assignments_delivered_idx').on(t.deliveredAt).where(sql`${t.status} = 'DELIVERED'`),
    /** Loads not yet delivered or cancelled: the dashboard counts them, the geofences find a truck's. */
    index('assignments_active_idx').on(t.truckId, t.id).where(inList(t.status, OPEN_LOAD_STATUSES)),
    /** A driver's open loads: which trucks a DRIVER sees on the map (driver dashboard, live trucks). */
    index('assignments_driver_open_idx')
      .on(t.driverId, t.truckId)
      .where(inList(t.status, OPEN_LOAD_STATUSES)),
    /** A driver's latest loads (driver dashboard), read backwards in this order. */
    index('assignments_driver_recent_idx').on(
      t.driverId,
      sql`coalesce(${t.scheduledAt}, ${t.createdAt})`,
      t.id,
    ),
  ],
);

/** Liveness of job runners: written by the `system.heartbeat` job, read by /api/health. */
export const workerHeartbeats = pgTable('worker_heartbeats', {
  workerId: text('worker_id').primaryKey(),
  transport: text('transport').notNull(),
  host: text('host').notNull(),
  pid: integer('pid').notNull(),
  seenAt: timestamp('seen_at', { withTimezone: true }).notNull(),
});

/**
 * One row (id 1), rewritten by health's write probe: a database that answers `select 1` may still refuse
 * every write (read-only, disk full); the probe's tiny upsert tells them apart.
 */
export const healthProbe = pgTable(
  'health_probe',
  {
    id: integer('id').primaryKey(),
    checkedAt: timestamp('checked_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('health_probe_singleton', sql`${t.id} = 1`)],
);

// ── Customer journey (issue 3) ────────────────────────────────────────────────────────────────────────

/** One row (id 1): the live pricing; the spec's defaults until an admin changes them. */
export const pricingSettings = pgTable(
  'pricing_settings',
  {
    id: integer('id').primaryKey().default(1),
    basePriceCents: bigint('base_price_cents', { mode: 'number' }).notNull().default(3_200_000),
    baseDistanceKm: numeric('base_distance_km', { precision: 8, scale: 2, mode: 'number' })
      .notNull()
      .default(15),
    incrementKm: numeric('increment_km', { precision: 8, scale: 2, mode: 'number' }).notNull().default(5),
    incrementAmountCents: bigint('increment_amount_cents', { mode: 'number' }).notNull().default(100_000),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('pricing_settings_singleton', sql`${t.id} = 1`),
    check(
      'pricing_settings_positive',
      sql`${t.basePriceCents} > 0 and ${t.incrementKm} > 0 and ${t.incrementAmountCents} >= 0`,
    ),
  ],
);

/**
 * A payment: a customer's confirmation (bank or M-Pesa reference) and ops' review of it, one ops recorded,
 * or an M-Pesa payment Daraja reported (C2B paybill or STK push), with its receipt, amount, time, payer's
 * name as given and masked phone. An M-Pesa payment whose account number is not an order's waits with no
 * order until ops match it (who and when kept).
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    reference: text('reference').notNull(),
    message: text('message'),
    status: text('status', { enum: PAYMENT_STATUSES }).notNull().default('SUBMITTED'),
    /** Who told us: the customer, ops, or M-Pesa itself (a C2B confirmation, an STK result). */
    source: text('source', { enum: PAYMENT_SOURCES }).notNull().default('CUSTOMER'),
    /** Known when M-Pesa reported it (typed references carry none). */
    amountCents: bigint('amount_cents', { mode: 'number' }),
    /** M-Pesa's receipt (TransID / MpesaReceiptNumber): one payment, however often it is delivered. */
    mpesaReceipt: text('mpesa_receipt'),
    /** The STK request this payment answered (CheckoutRequestID). */
    checkoutRequestId: text('checkout_request_id'),
    /** The account number as the payer typed it (BillRefNumber). */
    accountRef: text('account_ref'),
    payerName: text('payer_name'),
    /** Masked as Safaricom does (`2547 ***** 126`); no full number is kept. */
    payerPhone: text('payer_phone'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    /** The part of this payment beyond what its order owed (refund or carry over). */
    creditCents: bigint('credit_cents', { mode: 'number' }).notNull().default(0),
    submittedById: integer('submitted_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedById: integer('reviewed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    matchedById: integer('matched_by_id').references(() => users.id, { onDelete: 'set null' }),
    matchedAt: timestamp('matched_at', { withTimezone: true }),
    /**
     * A payment to a customer's account on terms (issue 24: paybill account MCA<id>, or money for an order
     * on terms): allocated to the account's invoices (`account_allocations`), `credit_cents` what is left.
     */
    accountCustomerId: integer('account_customer_id').references(
      (): AnyPgColumn => customerAccounts.customerId,
    ),
    /** What of an account payment no invoice holds yet: a credit on the account, paying the next invoice. */
    unallocatedCents: bigint('unallocated_cents', { mode: 'number' }).notNull().default(0),
    /** The invoice the payer named, paid first. */
    namedInvoiceId: integer('named_invoice_id').references((): AnyPgColumn => invoices.id),
    /** A reversed account payment (a bounced transfer, an M-Pesa reversal): who, when and why. */
    reversedAt: timestamp('reversed_at', { withTimezone: true }),
    reversedById: integer('reversed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reverseReason: text('reverse_reason'),
    ...timestamps,
  },
  (t) => [
    index('payments_account_idx').on(t.accountCustomerId).where(sql`${t.accountCustomerId} is not null`),
    uniqueIndex('payments_account_reference_key')
      .on(t.accountCustomerId, sql`lower(${t.reference})`)
      .where(sql`${t.accountCustomerId} is not null and ${t.orderId} is null`),
    uniqueIndex('payments_order_reference_key').on(t.orderId, sql`lower(${t.reference})`),
    uniqueIndex('payments_mpesa_receipt_key').on(t.mpesaReceipt).where(sql`${t.mpesaReceipt} is not null`),
    uniqueIndex('payments_checkout_request_key')
      .on(t.checkoutRequestId)
      .where(sql`${t.checkoutRequestId} is not null`),
    index('payments_status_idx').on(t.status),
    // One M-Pesa receipt settles one payment, whoever reported it and on whichever order (typed by a
    // customer, confirmed by ops, reported by M-Pesa; 'M-Pesa paybill' and 'MPESA': MPESA_METHODS).
    uniqueIndex('payments_settled_receipt_key')
      .on(sql`upper(${t.reference})`)
      .where(sql`${t.status} = 'CONFIRMED' and ${t.method} in ('MPESA', 'M-Pesa paybill')`),
    index('payments_unmatched_idx').on(t.id).where(sql`${t.orderId} is null`),
    check('payments_status_check', inList(t.status, PAYMENT_STATUSES)),
    check('payments_source_check', inList(t.source, PAYMENT_SOURCES)),
    check('payments_amount_check', sql`${t.amountCents} is null or ${t.amountCents} > 0`),
    check('payments_credit_check', sql`${t.creditCents} >= 0`),
    check('payments_unallocated_check', sql`${t.unallocatedCents} >= 0`),
  ],
);

/**
 * Every M-Pesa callback as it arrived (the raw body), stored before it is answered; a job processes it
 * after the answer (`mpesa.process`). Duplicates are stored too: the payment they carry is credited once.
 * STK_QUERY rows are Daraja's answers to the reconciliation job's status queries, processed the same way.
 */
export const mpesaCallbacks = pgTable(
  'mpesa_callbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind', { enum: MPESA_CALLBACK_KINDS }).notNull(),
    body: text('body').notNull(),
    sourceIp: text('source_ip'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** The receipt or CheckoutRequestID it carried, once read. */
    ref: text('ref'),
    /** What processing made of it: credited, duplicate, unmatched, failed, accepted, refused, … */
    outcome: text('outcome'),
    error: text('error'),
  },
  (t) => [
    check('mpesa_callbacks_kind_check', inList(t.kind, MPESA_CALLBACK_KINDS)),
    index('mpesa_callbacks_pending_idx').on(t.receivedAt).where(sql`${t.processedAt} is null`),
    index('mpesa_callbacks_ref_idx').on(t.ref),
  ],
);

/**
 * An STK push (payment prompt) sent to a customer's phone for part or all of an order's balance. PENDING
 * until its callback (or the reconciliation job's status query) says PAID or FAILED with a result code.
 */
export const mpesaStkRequests = pgTable(
  'mpesa_stk_requests',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    checkoutRequestId: text('checkout_request_id').notNull(),
    merchantRequestId: text('merchant_request_id'),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    /** This prompt's place among the prompts the balance needs (1 of 3 above KES 250,000). */
    part: integer('part').notNull().default(1),
    parts: integer('parts').notNull().default(1),
    phoneMasked: text('phone_masked').notNull(),
    status: text('status', { enum: STK_REQUEST_STATUSES }).notNull().default('PENDING'),
    resultCode: text('result_code'),
    resultDesc: text('result_desc'),
    requestedById: integer('requested_by_id').references(() => users.id, { onDelete: 'set null' }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** The reconciliation job's last status query and how many it has made. */
    queriedAt: timestamp('queried_at', { withTimezone: true }),
    queryCount: integer('query_count').notNull().default(0),
    queryError: text('query_error'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('mpesa_stk_requests_checkout_key').on(t.checkoutRequestId),
    index('mpesa_stk_requests_order_idx').on(t.orderId, t.createdAt),
    index('mpesa_stk_requests_pending_idx').on(t.createdAt).where(sql`${t.status} = 'PENDING'`),
    check('mpesa_stk_requests_status_check', inList(t.status, STK_REQUEST_STATUSES)),
    check('mpesa_stk_requests_amount_check', sql`${t.amountCents} > 0`),
  ],
);

// ── Operations (issue 4) ──────────────────────────────────────────────────────────────────────────────

/** Yard stock movements: receipts add tonnes, delivered loads take them out (signed tonnes). */
export const stockTransactions = pgTable(
  'stock_transactions',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: STOCK_TX_KINDS }).notNull(),
    trucks: numeric('trucks', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    tonnes: numeric('tonnes', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    category: text('category', { enum: SAND_TYPES }).notNull(),
    truckId: text('truck_id').references(() => trucks.id, { onDelete: 'set null' }),
    reason: text('reason'),
    costPerTonneCents: bigint('cost_per_tonne_cents', { mode: 'number' }),
    /** The delivered load that took this stock out; unique so a re-delivery cannot take it twice. */
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    check('stock_tx_kind_check', inList(t.kind, STOCK_TX_KINDS)),
    check('stock_tx_category_check', inList(t.category, SAND_TYPES)),
    uniqueIndex('stock_tx_assignment_key').on(t.assignmentId),
    index('stock_tx_created_idx').on(t.createdAt),
  ],
);

// ── Money (issue 5) ───────────────────────────────────────────────────────────────────────────────────

const auditColumns = {
  isDuplicate: boolean('is_duplicate').notNull().default(false),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  confirmedById: integer('confirmed_by_id').references(() => users.id, { onDelete: 'set null' }),
  createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
  reviewedById: integer('reviewed_by_id').references(() => users.id, { onDelete: 'set null' }),
  reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
  reviewNote: text('review_note'),
  voidedById: integer('voided_by_id').references(() => users.id, { onDelete: 'set null' }),
  voidedAt: timestamp('voided_at', { withTimezone: true }),
  voidReason: text('void_reason'),
};

export const costs = pgTable(
  'costs',
  {
    id: serial('id').primaryKey(),
    type: text('type', { enum: COST_TYPES }).notNull(),
    truckId: text('truck_id').references(() => trucks.id, { onDelete: 'set null' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
    incurredAt: timestamp('incurred_at', { withTimezone: true }).notNull().defaultNow(),
    duplicateOf: integer('duplicate_of'),
    /** Where the cost came from: typed in, a fuel log's linked cost, or a stock receipt's purchase. */
    source: text('source', { enum: COST_SOURCES }).notNull().default('MANUAL'),
    stockTxId: integer('stock_tx_id').references(() => stockTransactions.id, { onDelete: 'set null' }),
    /** The load this cost belongs to (loading, offloading): counted in that trip's profit (issue 17). */
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
    ...auditColumns,
    ...timestamps,
  },
  (t) => [
    check('costs_amount_check', sql`${t.amountCents} > 0`),
    check('costs_type_check', inList(t.type, COST_TYPES)),
    check('costs_source_check', inList(t.source, COST_SOURCES)),
    index('costs_incurred_idx').on(t.incurredAt),
    index('costs_truck_incurred_idx').on(t.truckId, t.incurredAt),
    /** A trip's linked costs (trip profit, per load): without it each load scanned every cost ever. */
    index('costs_assignment_idx').on(t.assignmentId).where(sql`${t.assignmentId} is not null`),
    index('costs_duplicate_idx').on(t.isDuplicate).where(sql`${t.isDuplicate}`),
  ],
);

export const fuelLogs = pgTable(
  'fuel_logs',
  {
    id: serial('id').primaryKey(),
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id),
    litres: numeric('litres', { precision: 10, scale: 2, mode: 'number' }),
    odometer: numeric('odometer', { precision: 12, scale: 1, mode: 'number' }),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull(),
    note: text('note'),
    capturedAt: timestamp('captured_at', { withTimezone: true }).notNull(),
    photoPath: text('photo_path'),
    /**
     * GPS km since the truck's previous log (null: fewer than two fixes between them), from the truck's
     * odometer rollup: written by the fuel checks and again by the telemetry worker when late fixes land
     * in the interval. The fill history reads these, never the raw fixes (which retention drops).
     */
    gpsKm: doublePrecision('gps_km'),
    /** The truck's primary driver when the log was captured. */
    driverId: text('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    duplicateOf: integer('duplicate_of'),
    costId: integer('cost_id').references(() => costs.id, { onDelete: 'set null' }),
    ...auditColumns,
    ...timestamps,
  },
  (t) => [
    check('fuel_logs_litres_check', sql`${t.litres} is null or ${t.litres} >= 0`),
    check('fuel_logs_odometer_check', sql`${t.odometer} is null or ${t.odometer} >= 0`),
    check('fuel_logs_cost_check', sql`${t.costCents} >= 0`),
    index('fuel_logs_truck_captured_idx').on(t.truckId, t.capturedAt),
    index('fuel_logs_captured_idx').on(t.capturedAt),
  ],
);

/**
 * Daily finance rollup per truck (Africa/Nairobi days), maintained in the same transaction as the rows
 * it sums so finance answers stay fast at millions of rows; a test recomputes it from the raw rows.
 */
export const financeDaily = pgTable(
  'finance_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    /** '' for money not tied to a truck. */
    truckId: text('truck_id').notNull().default(''),
    loads: integer('loads').notNull().default(0),
    orders: integer('orders').notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.truckId] })],
);

/**
 * finance_daily summed over its trucks, one row per Nairobi day, kept by the same function: the
 * timeseries and summary read a row a day instead of one per truck a day.
 */
export const financeDayTotal = pgTable('finance_day_total', {
  day: date('day', { mode: 'string' }).primaryKey(),
  loads: integer('loads').notNull().default(0),
  orders: integer('orders').notNull().default(0),
  revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
  costCents: bigint('cost_cents', { mode: 'number' }).notNull().default(0),
});

/**
 * finance_daily summed per calendar month (its first day) and truck, kept by the same function: the truck
 * breakdown reads whole months here and only the days at either end of a range from finance_daily.
 */
export const financeMonthly = pgTable(
  'finance_monthly',
  {
    month: date('month', { mode: 'string' }).notNull(),
    /** '' for money not tied to a truck. */
    truckId: text('truck_id').notNull().default(''),
    loads: integer('loads').notNull().default(0),
    orders: integer('orders').notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.month, t.truckId] })],
);

/** Yard stock per category: the running sum of signed stock movements, kept by a trigger on them. */
export const yardStockBalance = pgTable(
  'yard_stock_balance',
  {
    category: text('category', { enum: SAND_TYPES }).primaryKey(),
    tonnes: numeric('tonnes', { precision: 16, scale: 2, mode: 'number' }).notNull().default(0),
  },
  (t) => [check('yard_stock_balance_category_check', inList(t.category, SAND_TYPES))],
);

/** Delivered loads per (Africa/Nairobi day, driver), kept by the same trigger as finance_daily. */
export const driverDaily = pgTable(
  'driver_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    driverId: text('driver_id').notNull(),
    loads: integer('loads').notNull().default(0),
    tonnes: numeric('tonnes', { precision: 14, scale: 2, mode: 'number' }).notNull().default(0),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.driverId] })],
);

/** Non-voided costs per (Africa/Nairobi day, cost type), kept by the same trigger as finance_daily. */
export const costTypeDaily = pgTable(
  'cost_type_daily',
  {
    day: date('day', { mode: 'string' }).notNull(),
    type: text('type').notNull(),
    costCents: bigint('cost_cents', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.type] })],
);

// ── Fleet (issue 6) ───────────────────────────────────────────────────────────────────────────────────

/** Every accepted fix, once per device and fix time (a re-run ingest job writes nothing twice). */
export const truckPositions = pgTable(
  'truck_positions',
  {
    deviceId: text('device_id').notNull(),
    fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    speedKmh: doublePrecision('speed_kmh'),
    heading: doublePrecision('heading'),
    altitude: doublePrecision('altitude'),
    accuracy: doublePrecision('accuracy'),
    battery: doublePrecision('battery'),
    attributes: jsonb('attributes'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The truck's GPS odometer at this fix: km over its consecutive fixes (fix time, then device) from an
     * arbitrary start, kept by the telemetry worker (core/telemetry/odometer.ts). The km between two
     * instants is two index probes, whatever the history.
     */
    cumKm: doublePrecision('cum_km'),
  },
  (t) => [
    // Partitioned by month on fix_time (migration 0023; created ahead and dropped by the positions job).
    primaryKey({ columns: [t.deviceId, t.fixTime] }),
    index('truck_positions_truck_fix_idx').on(t.truckId, t.fixTime),
    /** Fixes arrive in time order, so a BRIN range index serves time scans across trucks at a sliver of a B-tree. */
    index('truck_positions_fix_brin').using('brin', t.fixTime),
  ],
);

/**
 * What the product keeps of the raw fixes forever (before retention drops them): per truck and
 * Africa/Nairobi day, the GPS km (segments ending that day), fixes, moving fixes, first and last fix and
 * top speed. Kept exact by the telemetry worker in the transaction that writes the fixes.
 */
export const truckDays = pgTable(
  'truck_days',
  {
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    km: doublePrecision('km').notNull().default(0),
    fixes: integer('fixes').notNull().default(0),
    movingFixes: integer('moving_fixes').notNull().default(0),
    firstFixAt: timestamp('first_fix_at', { withTimezone: true }).notNull(),
    lastFixAt: timestamp('last_fix_at', { withTimezone: true }).notNull(),
    maxSpeedKmh: doublePrecision('max_speed_kmh'),
  },
  (t) => [primaryKey({ columns: [t.truckId, t.day] }), index('truck_days_day_idx').on(t.day)],
);

/** The latest position per truck, with movement state for idle minutes. */
export const truckLatest = pgTable('truck_latest', {
  truckId: text('truck_id')
    .primaryKey()
    .references(() => trucks.id, { onDelete: 'cascade' }),
  lat: doublePrecision('lat').notNull(),
  lng: doublePrecision('lng').notNull(),
  speedKmh: doublePrecision('speed_kmh'),
  heading: doublePrecision('heading'),
  address: text('address'),
  status: text('status'),
  fixTime: timestamp('fix_time', { withTimezone: true }).notNull(),
  /** When the truck last moved faster than 5 km/h; idle minutes count from here. */
  lastMovedAt: timestamp('last_moved_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  /** The phone's battery (%) from its latest fix or heartbeat. */
  battery: doublePrecision('battery'),
  /** When the device last reported, a fix or a heartbeat without one (the server's clock). */
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
});

/**
 * A device heard from before its first fix (a heartbeat without lat/lon from a phone that has not found
 * GPS yet): its battery and when it last reported, so the fleet view shows it alive. truck_latest takes
 * over once a fix arrives (the fleet view reads the newer of the two).
 */
export const truckSeen = pgTable('truck_seen', {
  truckId: text('truck_id')
    .primaryKey()
    .references(() => trucks.id, { onDelete: 'cascade' }),
  battery: doublePrecision('battery'),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
});

/**
 * Acknowledged fixes the database refused (a truck deleted meanwhile, a value no check foresaw): kept
 * raw (JSON text, so any character fits) with the error, for inspection; once per device and fix time.
 */
export const telemetryQuarantine = pgTable(
  'telemetry_quarantine',
  {
    id: serial('id').primaryKey(),
    deviceId: text('device_id').notNull(),
    fixTime: text('fix_time').notNull(),
    truckId: text('truck_id'),
    raw: text('raw').notNull(),
    error: text('error').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('telemetry_quarantine_fix_idx').on(t.deviceId, t.fixTime)],
);

/** Fixes answered 200 but not stored because they were implausible (e.g. a phone clock days ahead), counted per device and reason. */
export const telemetryDiscards = pgTable(
  'telemetry_discards',
  {
    deviceId: text('device_id').notNull(),
    reason: text('reason').notNull(),
    count: integer('count').notNull().default(0),
    firstAt: timestamp('first_at', { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
    /** The last discarded fix's time, as the device sent it. */
    lastSample: text('last_sample'),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.reason] })],
);

// ── Worker intelligence (issue 7) ─────────────────────────────────────────────────────────────────────

/** One Telegram message per (event, recipient): the unique key makes a re-run job send nothing twice. */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: serial('id').primaryKey(),
    eventKey: text('event_key').notNull(),
    recipientId: integer('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    chatId: text('chat_id'),
    text: text('text').notNull(),
    /** SENDING: a runner claimed it and may have sent it (see core/alerts/telegram.ts). */
    status: text('status', { enum: ALERT_DELIVERY_STATUSES }).notNull().default('PENDING'),
    error: text('error'),
    /** When a runner claimed it for sending (status SENDING); a claim this old is a runner that died. */
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('alert_deliveries_event_recipient_key').on(t.eventKey, t.recipientId),
    check('alert_deliveries_status_check', inList(t.status, ALERT_DELIVERY_STATUSES)),
    // The routing panel reads each recipient's latest delivery.
    index('alert_deliveries_recipient_idx').on(t.recipientId, t.id),
  ],
);

export const articles = pgTable(
  'articles',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    topic: text('topic'),
    summary: text('summary'),
    body: text('body'),
    imageUrl: text('image_url'),
    /** The Nairobi day the briefing covers; one generated briefing per day. */
    forDate: date('for_date', { mode: 'string' }),
    generator: text('generator', { enum: ARTICLE_GENERATORS }).notNull().default('rules'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('articles_for_date_key').on(t.forDate),
    index('articles_created_idx').on(t.createdAt),
    check('articles_generator_check', inList(t.generator, ARTICLE_GENERATORS)),
  ],
);

export const aiInsights = pgTable(
  'ai_insights',
  {
    id: serial('id').primaryKey(),
    insights: text('insights').notNull(),
    alerts: jsonb('alerts').$type<string[]>().notNull().default([]),
    generator: text('generator', { enum: INSIGHT_GENERATORS }).notNull(),
    /** Why the configured model's text was not used (its error, an empty or too long answer); ADMIN sees it. */
    llmFailure: text('llm_failure'),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('ai_insights_generator_check', inList(t.generator, INSIGHT_GENERATORS))],
);

/**
 * The internal daily summary (yesterday's loads, revenue, costs, people, queues) for staff only: the AI
 * tab and the ADMIN/OPS Telegram chats. One per Nairobi day; never shown on the public site.
 */
export const dailySummaries = pgTable(
  'daily_summaries',
  {
    id: serial('id').primaryKey(),
    forDate: date('for_date', { mode: 'string' }).notNull(),
    text: text('text').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('daily_summaries_for_date_key').on(t.forDate)],
);

// ── Shape (issue 10) ──────────────────────────────────────────────────────────────────────────────────

/**
 * The transactional outbox: a job that must run because a row changed is written here in the same
 * transaction as the change; a relay (core/jobs/outbox-relay.ts) enqueues it and marks it sent. Nothing is
 * lost when Redis or the process is down between commit and enqueue.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    job: text('job').notNull(),
    payload: jsonb('payload').notNull(),
    /** The job id the relay enqueues with, so a relay crash after enqueue and before marking runs it once. */
    dedupeId: text('dedupe_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_pending_idx').on(t.availableAt, t.id).where(sql`${t.sentAt} is null`),
    index('outbox_sent_idx').on(t.sentAt).where(sql`${t.sentAt} is not null`),
  ],
);

/**
 * The embedded mode's job queue (issue 25): the in-process runner writes each job here before it is
 * acknowledged and marks it done only when its handler finished, so queued, delayed and retrying jobs run
 * after a restart (or a kill). Completed rows are kept a day for de-duplication by job id, then removed.
 */
export const embeddedJobs = pgTable(
  'embedded_jobs',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /**
     * The payload as JSON text, not jsonb: jsonb refuses \u0000, and a telemetry batch from a tracker may carry
     * one, which the job itself quarantines (the job must be kept to get that far).
     */
    payload: text('payload').notNull(),
    state: text('state', { enum: EMBEDDED_JOB_STATES }).notNull().default('queued'),
    /** The attempt the next run is (1 first). */
    attempt: integer('attempt').notNull().default(1),
    /** Runs spent waiting for a database that was down (they spend no attempt). */
    waits: integer('waits').notNull().default(0),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('embedded_jobs_state_check', inList(t.state, EMBEDDED_JOB_STATES)),
    index('embedded_jobs_queued_idx').on(t.runAt).where(sql`${t.state} = 'queued'`),
    index('embedded_jobs_finished_idx').on(t.finishedAt).where(sql`${t.finishedAt} is not null`),
  ],
);

/**
 * Backups (issue 25): one row per run, scheduled (`BACKUP_CRON`) or by hand (`npm run backup`); the newest
 * `ok` one is the "last backup" on the ADMIN screen, in health and in /metrics.
 */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    status: text('status', { enum: BACKUP_STATUSES }).notNull().default('running'),
    /** The file's name inside BACKUP_DIR. */
    file: text('file'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    error: text('error'),
  },
  (t) => [
    check('backup_runs_status_check', inList(t.status, BACKUP_STATUSES)),
    index('backup_runs_started_idx').on(t.startedAt),
  ],
);

/**
 * Rate-limit counters (sign-in, registration, chat, guest orders) when there is no Redis: in the database,
 * so embedded mode keeps them across a restart. Columns as rate-limiter-flexible's RateLimiterDrizzle wants.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    points: integer('points').notNull().default(0),
    expire: timestamp('expire', { withTimezone: true }),
  },
  (t) => [index('rate_limits_expire_idx').on(t.expire)],
);

/**
 * Revenue is recognised per delivered load: per-truck price × tonnes / 20, rounded half-up to the cent
 * once (SQL function `load_revenue_cents`), on its Africa/Nairobi delivery day. Every reader (dashboards,
 * finance rollup, insights, briefing) selects from this view; migration 0003 defines it.
 */
export const deliveredLoads = pgView('delivered_loads', {
  assignmentId: integer('assignment_id').notNull(),
  orderId: integer('order_id').notNull(),
  truckId: text('truck_id').notNull(),
  driverId: text('driver_id'),
  tonnes: numeric('tonnes', { precision: 8, scale: 2, mode: 'number' }).notNull(),
  deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull(),
  day: date('day', { mode: 'string' }).notNull(),
  revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull(),
}).existing();

/** Yard stock by category (receipts add, delivered loads take out), from the running yard_stock_balance. */
export const yardStock = pgView('yard_stock', {
  coarseTonnes: numeric('coarse_tonnes', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  smoothTonnes: numeric('smooth_tonnes', { precision: 14, scale: 2, mode: 'number' }).notNull(),
  tonnes: numeric('tonnes', { precision: 14, scale: 2, mode: 'number' }).notNull(),
}).existing();

// ── Tracking (issue 16) ───────────────────────────────────────────────────────────────────────────────

/**
 * A truck crossing the yard's or a site's geofence (confirmed by the engine in shared/domain/geofence.ts),
 * dated at the first fix on the new side: what cycle times are measured from. Once per truck, kind and
 * time, so a re-run ingest job records nothing twice.
 */
export const geofenceEvents = pgTable(
  'geofence_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: GEOFENCE_EVENT_KINDS }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull(),
    lat: doublePrecision('lat').notNull(),
    lng: doublePrecision('lng').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('geofence_events_truck_kind_at_key').on(t.truckId, t.kind, t.at),
    index('geofence_events_truck_at_idx').on(t.truckId, t.at),
    index('geofence_events_assignment_idx').on(t.assignmentId),
    check('geofence_events_kind_check', inList(t.kind, GEOFENCE_EVENT_KINDS)),
  ],
);

/**
 * Each delivered trip's GPS km (a per-trip rollup): the truck's odometer between the trip's first yard exit and
 * first yard entry (its geofence events), kept by the telemetry worker when those events are recorded and
 * measured again when late fixes land inside the window, so trip views never read raw fixes and still show
 * the km after retention dropped them. km is null while the window holds fewer than two fixes.
 */
export const tripKm = pgTable(
  'trip_km',
  {
    assignmentId: integer('assignment_id')
      .primaryKey()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    yardExitAt: timestamp('yard_exit_at', { withTimezone: true }).notNull(),
    yardEntryAt: timestamp('yard_entry_at', { withTimezone: true }).notNull(),
    km: doublePrecision('km'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('trip_km_truck_entry_idx').on(t.truckId, t.yardEntryAt)],
);

/**
 * One row per delivered load with everything the trip views read (issue 26): its order's site, revenue and
 * distance, its geofence times and the truck's yard arrival before it, its linked costs and GPS km. Kept by
 * triggers on the rows it copies (assignments, orders, geofence_events, costs, trip_km) in their own
 * transaction, so a week or a month of trips is one range scan, not a look-up per trip in five tables.
 */
export const tripFacts = pgTable(
  'trip_facts',
  {
    assignmentId: integer('assignment_id')
      .primaryKey()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').notNull(),
    truckId: text('truck_id').notNull(),
    driverId: text('driver_id'),
    site: text('site').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull(),
    plannedAt: timestamp('planned_at', { withTimezone: true }).notNull(),
    revenueCents: bigint('revenue_cents', { mode: 'number' }).notNull(),
    distanceKm: numeric('distance_km', { precision: 8, scale: 2 }).notNull(),
    yardExitAt: timestamp('yard_exit_at', { withTimezone: true }),
    siteEntryAt: timestamp('site_entry_at', { withTimezone: true }),
    siteExitAt: timestamp('site_exit_at', { withTimezone: true }),
    yardEntryAt: timestamp('yard_entry_at', { withTimezone: true }),
    prevYardEntryAt: timestamp('prev_yard_entry_at', { withTimezone: true }),
    linkedCents: bigint('linked_cents', { mode: 'number' }).notNull().default(0),
    gpsKm: doublePrecision('gps_km'),
  },
  (t) => [
    index('trip_facts_delivered_idx').on(t.deliveredAt),
    index('trip_facts_truck_exit_idx').on(t.truckId, t.yardExitAt),
  ],
);

/** Each truck's side of each fence it is watched against ('yard', 'site:<orderId>', 'stop'), between batches. */
export const geofenceStates = pgTable(
  'geofence_states',
  {
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    fence: text('fence').notNull(),
    state: jsonb('state').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.truckId, t.fence] })],
);

/** Every move of a load: by a geofence, by hand (who and why), or by a proof of delivery. */
export const loadEvents = pgTable(
  'load_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    assignmentId: integer('assignment_id')
      .notNull()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    fromStatus: text('from_status').notNull(),
    toStatus: text('to_status').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    source: text('source', { enum: LOAD_EVENT_SOURCES }).notNull(),
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    geofenceEventId: bigint('geofence_event_id', { mode: 'number' }).references(() => geofenceEvents.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('load_events_assignment_idx').on(t.assignmentId, t.at),
    check('load_events_source_check', inList(t.source, LOAD_EVENT_SOURCES)),
  ],
);

/**
 * A delivery's proof: the photo (re-encoded upload) and the customer's code, or, failing the code, the
 * receiver's name, in which case the load is flagged for operations.
 */
export const deliveryProofs = pgTable(
  'delivery_proofs',
  {
    assignmentId: integer('assignment_id')
      .primaryKey()
      .references(() => assignments.id, { onDelete: 'cascade' }),
    photoPath: text('photo_path').notNull(),
    method: text('method', { enum: DELIVERY_PROOF_METHODS }).notNull(),
    receiverName: text('receiver_name'),
    flagged: boolean('flagged').notNull().default(false),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    recordedById: integer('recorded_by_id').references(() => users.id, { onDelete: 'set null' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('delivery_proofs_photo_key').on(t.photoPath),
    check('delivery_proofs_method_check', inList(t.method, DELIVERY_PROOF_METHODS)),
  ],
);

/**
 * Field writes a phone may replay carry an `Idempotency-Key` (server/idempotency.ts): the first answer is
 * kept here, so a replay answers it again and never makes a second row. One key per user.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The procedure, e.g. `fuel.create`: the same key works over REST and tRPC. */
    route: text('route').notNull(),
    /** sha256 of the parsed input: the same key with another body is refused (422). */
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body'),
    createdId: text('created_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('idempotency_keys_user_key').on(t.userId, t.key),
    index('idempotency_keys_created_idx').on(t.createdAt),
  ],
);

// ── Trip economics and legality (issue 17) ────────────────────────────────────────────────────────────

/** Gross vehicle weight limit per axle count (Traffic Act Cap 403 as KeNHA states it); ADMIN edits. */
export const grossLimits = pgTable(
  'gross_limits',
  {
    axles: integer('axles').primaryKey(),
    grossT: numeric('gross_t', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('gross_limits_axles_check', inList(t.axles, AXLE_COUNTS)),
    check('gross_limits_gross_check', sql`${t.grossT} > 0`),
  ],
);

/** A fuel log that looks wrong (shared/domain/fuel-anomalies.ts), once per log and kind, until reviewed. */
export const fuelAnomalies = pgTable(
  'fuel_anomalies',
  {
    id: serial('id').primaryKey(),
    fuelLogId: integer('fuel_log_id')
      .notNull()
      .references(() => fuelLogs.id, { onDelete: 'cascade' }),
    truckId: text('truck_id')
      .notNull()
      .references(() => trucks.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FUEL_ANOMALY_KINDS }).notNull(),
    detail: text('detail').notNull(),
    status: text('status', { enum: FUEL_ANOMALY_STATUSES }).notNull().default('open'),
    reason: text('reason'),
    reviewedById: integer('reviewed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fuel_anomalies_log_kind_key').on(t.fuelLogId, t.kind),
    index('fuel_anomalies_status_idx').on(t.status, t.createdAt),
    check('fuel_anomalies_kind_check', inList(t.kind, FUEL_ANOMALY_KINDS)),
    check('fuel_anomalies_status_check', inList(t.status, FUEL_ANOMALY_STATUSES)),
  ],
);

// ── KRA eTIMS and invoices (issue 23) ─────────────────────────────────────────────────────────────────

/**
 * The invoicing branch: 'local' while eTIMS is off, else one row per KRA PIN and branch id (KRA numbers
 * invoices and stock movements per branch, from 1). Exactly one is active: the one settings name at start.
 * It holds the gap-free counters (taken under this row's lock, inside the transaction that issues), the
 * device's communication key from its one initialisation, and how the link to KRA stands.
 */
export const etimsBranches = pgTable(
  'etims_branches',
  {
    id: text('id').primaryKey(),
    tin: text('tin'),
    bhfId: text('bhf_id'),
    deviceSerial: text('device_serial'),
    /** Sales of this branch go to KRA (false: 'local', receipts only). */
    enabled: boolean('enabled').notNull().default(false),
    active: boolean('active').notNull().default(false),
    vatRegistered: boolean('vat_registered').notNull().default(false),
    nextInvoiceNo: integer('next_invoice_no').notNull().default(1),
    nextSarNo: integer('next_sar_no').notNull().default(1),
    /** From selectInitOsdcInfo, once: the communication key every later call carries. */
    cmcKey: text('cmc_key'),
    sdcId: text('sdc_id'),
    mrcNo: text('mrc_no'),
    dvcId: text('dvc_id'),
    taxpayerName: text('taxpayer_name'),
    /** The branch id and name KRA answered with at initialisation (its 00/01 may differ from ours). */
    kraBhfId: text('kra_bhf_id'),
    kraBranchName: text('kra_branch_name'),
    initialisedAt: timestamp('initialised_at', { withTimezone: true }),
    /** Code lists and item classes fetched (refreshed monthly), and the classification used for sand. */
    referenceFetchedAt: timestamp('reference_fetched_at', { withTimezone: true }),
    itemClass: text('item_class'),
    itemsRegisteredAt: timestamp('items_registered_at', { withTimezone: true }),
    status: text('status', { enum: ETIMS_LINK_STATUSES }).notNull().default('off'),
    statusMessage: text('status_message'),
    statusAt: timestamp('status_at', { withTimezone: true }),
    /** Failed passes in a row, and when the next one is due (back-off capped at 2 minutes). */
    failures: integer('failures').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    /** One delivery pass at a time per branch, across processes: who holds it and until when. */
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('etims_branches_active_key').on(t.active).where(sql`${t.active}`),
    check('etims_branches_status_check', inList(t.status, ETIMS_LINK_STATUSES)),
    check('etims_branches_counters_check', sql`${t.nextInvoiceNo} >= 1 and ${t.nextSarNo} >= 1`),
  ],
);

/** KRA's code lists and item classes as last fetched for a branch (a cache, refreshed monthly). */
export const etimsReference = pgTable(
  'etims_reference',
  {
    branchId: text('branch_id')
      .notNull()
      .references(() => etimsBranches.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ETIMS_REFERENCE_KINDS }).notNull(),
    /** KRA's resultDt of the download: the next refresh asks for changes after it. */
    resultDt: text('result_dt'),
    data: jsonb('data').notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.branchId, t.kind] }),
    check('etims_reference_kind_check', inList(t.kind, ETIMS_REFERENCE_KINDS)),
  ],
);

/**
 * One row per sale (kind S) or credit note (kind R), numbered without gaps per branch inside the
 * transaction that issues it; its lines in cents and tonnes; KRA's answer once signed. A sale comes from a
 * cash order paid in full (source 'order'), or, for accounts on terms, a delivered load (source 'load').
 */
export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    branchId: text('branch_id')
      .notNull()
      .references(() => etimsBranches.id),
    number: integer('number').notNull(),
    kind: text('kind', { enum: INVOICE_KINDS }).notNull(),
    status: text('status', { enum: INVOICE_STATUSES }).notNull(),
    source: text('source', { enum: INVOICE_SOURCES }).notNull(),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'restrict' }),
    /** The sale a credit note reverses. */
    originalId: integer('original_id').references((): AnyPgColumn => invoices.id),
    customerId: integer('customer_id').references(() => users.id, { onDelete: 'set null' }),
    customerName: text('customer_name').notNull(),
    customerPin: text('customer_pin'),
    customerPhone: text('customer_phone'),
    /** KRA payment type (06 mobile money, 07 other). */
    paymentType: text('payment_type').notNull(),
    /** KRA credit note reason (rfdRsnCd), and staff's note. */
    reasonCode: text('reason_code'),
    note: text('note'),
    /** [{ sandType, tonnes, unitPriceCents, amountCents }] (shared/domain/invoices.ts). */
    lines: jsonb('lines').notNull(),
    taxType: text('tax_type').notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    taxCents: bigint('tax_cents', { mode: 'number' }).notNull(),
    tonnes: numeric('tonnes', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    // KRA's answer: the last result, and what it signed.
    kraResultCode: text('kra_result_code'),
    kraResultMessage: text('kra_result_message'),
    attempts: integer('attempts').notNull().default(0),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    receiptNo: text('receipt_no'),
    totalReceiptNo: text('total_receipt_no'),
    internalData: text('internal_data'),
    receiptSignature: text('receipt_signature'),
    sdcDateTime: text('sdc_date_time'),
    sdcId: text('sdc_id'),
    mrcNo: text('mrc_no'),
    // The stock movement after a signed sale (or back in after a credit note for undelivered sand).
    stockStatus: text('stock_status', { enum: INVOICE_STOCK_STATUSES }).notNull().default('none'),
    stockTonnes: numeric('stock_tonnes', { precision: 10, scale: 2, mode: 'number' }).notNull().default(0),
    stockSarNo: integer('stock_sar_no'),
    stockMessage: text('stock_message'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('invoices_branch_number_key').on(t.branchId, t.number),
    /** One sale per paid order, one per invoiced load. */
    uniqueIndex('invoices_order_sale_key')
      .on(t.orderId)
      .where(sql`${t.kind} = 'S' and ${t.source} = 'order'`),
    uniqueIndex('invoices_load_sale_key')
      .on(t.assignmentId)
      .where(sql`${t.kind} = 'S' and ${t.source} = 'load'`),
    index('invoices_order_idx').on(t.orderId),
    index('invoices_original_idx').on(t.originalId),
    index('invoices_customer_idx').on(t.customerId, t.issuedAt),
    /** The delivery queue: what is not signed yet, in number order. */
    index('invoices_unsigned_idx')
      .on(t.branchId, t.number)
      .where(inList(t.status, UNSIGNED_INVOICE_STATUSES)),
    index('invoices_status_idx').on(t.status, t.issuedAt),
    check('invoices_kind_check', inList(t.kind, INVOICE_KINDS)),
    check('invoices_status_check', inList(t.status, INVOICE_STATUSES)),
    check('invoices_source_check', inList(t.source, INVOICE_SOURCES)),
    check('invoices_stock_status_check', inList(t.stockStatus, INVOICE_STOCK_STATUSES)),
    check('invoices_number_check', sql`${t.number} >= 1`),
    check('invoices_total_check', sql`${t.totalCents} > 0 and ${t.taxCents} >= 0`),
    check('invoices_credit_original_check', sql`(${t.kind} = 'R') = (${t.originalId} is not null)`),
  ],
);

/** Binary column: Buffer in, Buffer (postgres-js) or Uint8Array (PGlite) out. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * Uploaded images in services mode (core/uploads/storage.ts): every server instance reads the same rows,
 * and pg_dump backs them up with the rest. `data` is stored uncompressed out of line (JPEG does not
 * compress), so a read can take it in slices.
 */
export const uploads = pgTable(
  'uploads',
  {
    name: text('name').primaryKey(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** SHA-256 of the bytes, hex: checked on every read and by the start-up migration of files. */
    sha256: text('sha256').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('uploads_size_check', sql`${t.size} >= 0 and ${t.size} = octet_length(${t.data})`),
    check('uploads_sha256_check', sql`${t.sha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

/**
 * A customer on credit terms (issue 24): the limit and the days to pay, the KRA PIN for its invoices and a
 * billing contact. Its row is the account's lock: assignments on its credit, its payments, its invoices
 * and credit notes take it, so the limit and the allocations hold under concurrent requests.
 */
export const customerAccounts = pgTable(
  'customer_accounts',
  {
    customerId: integer('customer_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'restrict' }),
    creditLimitCents: bigint('credit_limit_cents', { mode: 'number' }).notNull(),
    termsDays: integer('terms_days').notNull(),
    kraPin: text('kra_pin'),
    billingEmail: text('billing_email'),
    billingPhone: text('billing_phone'),
    /** The day the daily reminder last told ops this account went overdue (once per day it goes). */
    overdueNotifiedOn: date('overdue_notified_on', { mode: 'string' }),
    updatedById: integer('updated_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    check('customer_accounts_limit_check', sql`${t.creditLimitCents} >= 0`),
    check('customer_accounts_terms_check', sql`${t.termsDays} between 0 and 365`),
    check('customer_accounts_pin_check', sql`${t.kraPin} ~ '^[AP][0-9]{9}[A-Z]$'`),
  ],
);

/**
 * What an account owes on one tax invoice (a delivered load's sale): due on its issue day plus the terms,
 * less its credit notes and the payments standing against it. Written under the account's lock.
 */
export const receivables = pgTable(
  'receivables',
  {
    invoiceId: integer('invoice_id')
      .primaryKey()
      .references(() => invoices.id, { onDelete: 'restrict' }),
    customerId: integer('customer_id')
      .notNull()
      .references(() => customerAccounts.customerId, { onDelete: 'restrict' }),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'restrict' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    creditedCents: bigint('credited_cents', { mode: 'number' }).notNull().default(0),
    allocatedCents: bigint('allocated_cents', { mode: 'number' }).notNull().default(0),
    ...timestamps,
  },
  (t) => [
    index('receivables_customer_idx').on(t.customerId, t.issuedAt),
    index('receivables_open_idx')
      .on(t.customerId, t.dueDate)
      .where(sql`${t.totalCents} > ${t.creditedCents} + ${t.allocatedCents}`),
    check('receivables_total_check', sql`${t.totalCents} > 0`),
    check(
      'receivables_parts_check',
      sql`${t.creditedCents} >= 0 and ${t.allocatedCents} >= 0 and ${t.creditedCents} + ${t.allocatedCents} <= ${t.totalCents}`,
    ),
  ],
);

/**
 * A part of an account payment standing against an invoice. Released (not deleted) when a credit note
 * or the payment's reversal gives it back; the standing parts of a payment plus its credit are its amount.
 */
export const accountAllocations = pgTable(
  'account_allocations',
  {
    id: serial('id').primaryKey(),
    paymentId: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'restrict' }),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => receivables.invoiceId, { onDelete: 'restrict' }),
    cents: bigint('cents', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    releasedAt: timestamp('released_at', { withTimezone: true }),
  },
  (t) => [
    index('account_allocations_payment_idx').on(t.paymentId),
    index('account_allocations_invoice_idx').on(t.invoiceId),
    check('account_allocations_cents_check', sql`${t.cents} > 0`),
  ],
);

// ── Operating it: the staff action log and password resets (issue 25) ─────────────────────────────────

/**
 * Every write by a signed-in user, sign-ins (failed ones too) and sign-outs, written in the transaction
 * of the write it describes (core/activity). Append-only: a trigger refuses updates, and deletes outside
 * the retention job (which sets `mchanga.activity_purge` for its own transaction). Who and their role are
 * copied, not joined, so the entry keeps what was true at the time.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    userId: integer('user_id'),
    userName: text('user_name'),
    role: text('role'),
    /** What was done: the procedure (`admin.costs.update`) or an event (`auth.signIn`, `auth.signInFailed`). */
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    /** `{ field: { from, to } }`; secrets appear only as `[redacted]` (shared/domain/activity.ts). */
    changes: jsonb('changes').notNull().default({}),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    index('activity_log_at_idx').on(t.at),
    index('activity_log_user_idx').on(t.userId, t.at),
    index('activity_log_entity_idx').on(t.entity, t.at),
  ],
);

/**
 * A forgotten password's one-time link and code. The request only makes the row; the mail job makes the
 * token (its sha256 kept here, never the token) when it sends, so no secret sits in a job payload.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash'),
    codeHash: text('code_hash'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_resets_token_key').on(t.tokenHash),
    index('password_resets_user_idx').on(t.userId, t.createdAt),
  ],
);

// ── WhatsApp and SMS (issue 29) ─────────────────────────────────────────────────────────────────────

/**
 * Callbacks from the customer rails, kept exactly as they came (Meta's signed webhook, Africa's Talking's
 * delivery reports and incoming messages) and processed after the answer by `messaging.inbound`.
 */
export const inboundCallbacks = pgTable(
  'inbound_callbacks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    source: text('source', { enum: INBOUND_SOURCES }).notNull(),
    body: text('body').notNull(),
    sourceIp: text('source_ip'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    check('inbound_callbacks_source_check', inList(t.source, INBOUND_SOURCES)),
    index('inbound_callbacks_unprocessed_idx').on(t.id).where(sql`${t.processedAt} is null`),
  ],
);

/**
 * One per customer phone (2547…): the WhatsApp conversation's state and draft order, the 24-hour window
 * (the customer's last message), the language, opt-outs, and ops' takeover.
 */
export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    profileName: text('profile_name'),
    language: text('language', { enum: LANGUAGES }).notNull().default('en'),
    state: text('state', { enum: CONVERSATION_STATES }).notNull().default('idle'),
    /** The order being put together: site, point, sand type, trucks (shared/domain/conversation.ts). */
    draft: jsonb('draft').$type<Record<string, unknown>>().notNull().default({}),
    /** The order the conversation is about (the last placed, or the one ops opened it from). */
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    customerId: integer('customer_id').references(() => users.id, { onDelete: 'set null' }),
    /** The customer's last WhatsApp message: free-form replies may go for 24 hours after it. */
    lastInboundAt: timestamp('last_inbound_at', { withTimezone: true }),
    /** Ops answer by hand: the bot stays quiet while set. */
    humanTakeoverAt: timestamp('human_takeover_at', { withTimezone: true }),
    humanTakeoverById: integer('human_takeover_by_id').references(() => users.id, { onDelete: 'set null' }),
    /** STOP by SMS (or Africa's Talking's blacklist): no more SMS until START. */
    smsOptOutAt: timestamp('sms_opt_out_at', { withTimezone: true }),
    /** STOP on WhatsApp: no more WhatsApp messages until START. */
    whatsappOptOutAt: timestamp('whatsapp_opt_out_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('conversations_phone_key').on(t.phone),
    check('conversations_language_check', inList(t.language, LANGUAGES)),
    check('conversations_state_check', inList(t.state, CONVERSATION_STATES)),
    index('conversations_order_idx').on(t.orderId),
  ],
);

/**
 * Every message to and from a customer on WhatsApp or SMS: the conversation ops read on the order, and the
 * send queue. An outgoing one is written PENDING with its `messaging.send` job in the outbox; the rail's id
 * (wamid, ATXid) makes its reports find it and an inbound message's replay a no-op.
 */
export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    orderId: integer('order_id').references(() => orders.id, { onDelete: 'set null' }),
    direction: text('direction', { enum: MESSAGE_DIRECTIONS }).notNull(),
    channel: text('channel', { enum: MESSAGE_CHANNELS }).notNull(),
    /** What the person reads (a template's text as it renders). */
    text: text('text').notNull(),
    /** The message as the rail takes it (Graph's JSON without the recipient; { message } for SMS). */
    payload: jsonb('payload').$type<Record<string, unknown>>(),
    /** A template sent outside the 24-hour window. */
    template: text('template'),
    status: text('status', { enum: MESSAGE_STATUSES }).notNull(),
    providerId: text('provider_id'),
    errorCode: text('error_code'),
    error: text('error'),
    /** One per event and channel (`order.placed:12:WHATSAPP`): the same news is never sent twice. */
    eventKey: text('event_key'),
    /** Ops' hand-written reply. */
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    /** When a runner claimed it (SENDING). */
    sendingAt: timestamp('sending_at', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    check('messages_direction_check', inList(t.direction, MESSAGE_DIRECTIONS)),
    check('messages_channel_check', inList(t.channel, MESSAGE_CHANNELS)),
    check('messages_status_check', inList(t.status, MESSAGE_STATUSES)),
    uniqueIndex('messages_provider_key').on(t.channel, t.providerId),
    uniqueIndex('messages_event_key').on(t.eventKey),
    index('messages_conversation_idx').on(t.conversationId, t.id),
    index('messages_order_idx').on(t.orderId, t.id),
  ],
);
