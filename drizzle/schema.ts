import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
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
    role: text('role', { enum: ['ADMIN', 'OPS', 'DRIVER', 'FUEL', 'CUSTOMER'] }).notNull(),
    driverId: text('driver_id').references(() => drivers.id, { onDelete: 'set null' }),
    passwordHash: text('password_hash').notNull(),
    /** Bumped on password change, logout-everywhere and disabling: every older token stops working. */
    tokenVersion: integer('token_version').notNull().default(0),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** Telegram chat for alerts (ADMIN and OPS); numeric, groups start with -100. */
    telegramChatId: text('telegram_chat_id'),
    /** The screens' language: en (English) or sw (Kiswahili); applied at sign-in. */
    language: text('language', { enum: ['en', 'sw'] })
      .notNull()
      .default('en'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    check('users_role_check', sql`${t.role} in ('ADMIN','OPS','DRIVER','FUEL','CUSTOMER')`),
    check('users_language_check', sql`${t.language} in ('en','sw')`),
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
    check('trucks_axles_check', sql`${t.axles} in (2, 3, 4)`),
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
    sandType: text('sand_type', { enum: ['coarse', 'smooth'] }).notNull(),
    trucks: integer('trucks').notNull(),
    perTruckCents: bigint('per_truck_cents', { mode: 'number' }).notNull(),
    totalCents: bigint('total_cents', { mode: 'number' }).notNull(),
    distanceKm: numeric('distance_km', { precision: 8, scale: 2, mode: 'number' }).notNull(),
    distanceSource: text('distance_source', {
      enum: ['manual', 'geocoded', 'heuristic', 'default'],
    }).notNull(),
    dateNeeded: date('date_needed', { mode: 'string' }),
    /** True when an admin replaced the distance price with a per-truck override. */
    priceOverridden: boolean('price_overridden').notNull().default(false),
    /** The customer asks for an overnight pour: loads outside the transport window are expected. */
    overnightPour: boolean('overnight_pour').notNull().default(false),
    status: text('status', {
      enum: ['AWAITING_PAYMENT', 'PAYMENT_REVIEW', 'RECEIVED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'],
    })
      .notNull()
      .default('AWAITING_PAYMENT'),
    paymentStatus: text('payment_status', { enum: ['PENDING', 'SUBMITTED', 'CONFIRMED', 'REJECTED'] })
      .notNull()
      .default('PENDING'),
    /**
     * The site's point and geofence radius: from the geocoder or the gazetteer at order time, refined by
     * the customer's pin or shared location, or set by the driver's first stop there (issue 16).
     */
    siteLat: doublePrecision('site_lat'),
    siteLng: doublePrecision('site_lng'),
    siteRadiusM: integer('site_radius_m'),
    siteSource: text('site_source', { enum: ['geocoder', 'gazetteer', 'pin', 'link', 'driver'] }),
    siteSetAt: timestamp('site_set_at', { withTimezone: true }),
    /** The customer's tracking link, /track/{token}: unguessable (122 random bits for older orders, 128 for new). */
    trackingToken: text('tracking_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    /** The 4-digit code the customer gives the driver to prove a delivery. */
    deliveryCode: text('delivery_code')
      .notNull()
      .default(sql`lpad(floor(random() * 10000)::int::text, 4, '0')`),
    /** Wrong delivery codes tried on this order; past the limit only a receiver's name (flagged) will do. */
    deliveryCodeFailures: integer('delivery_code_failures').notNull().default(0),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('orders_tracking_token_key').on(t.trackingToken),
    check('orders_delivery_code_check', sql`${t.deliveryCode} ~ '^[0-9]{4}$'`),
    check('orders_site_source_check', sql`${t.siteSource} in ('geocoder','gazetteer','pin','link','driver')`),
    check('orders_trucks_check', sql`${t.trucks} between 1 and 20`),
    check('orders_sand_type_check', sql`${t.sandType} in ('coarse','smooth')`),
    check(
      'orders_status_check',
      sql`${t.status} in ('AWAITING_PAYMENT','PAYMENT_REVIEW','RECEIVED','IN_TRANSIT','DELIVERED','CANCELLED')`,
    ),
    check(
      'orders_payment_status_check',
      sql`${t.paymentStatus} in ('PENDING','SUBMITTED','CONFIRMED','REJECTED')`,
    ),
    index('orders_customer_created_idx').on(t.customerId, t.createdAt),
    index('orders_status_idx').on(t.status),
    index('orders_created_idx').on(t.createdAt),
    /** Open orders only (a few thousand of millions): the dashboard counts them index-only. */
    index('orders_open_idx')
      .on(t.id)
      .where(sql`${t.status} in ('AWAITING_PAYMENT','PAYMENT_REVIEW','RECEIVED','IN_TRANSIT')`),
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
    status: text('status', { enum: ['SCHEDULED', 'IN_TRANSIT', 'ARRIVED', 'DELIVERED', 'CANCELLED'] })
      .notNull()
      .default('SCHEDULED'),
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
    ...timestamps,
  },
  (t) => [
    check('assignments_tonnes_check', sql`${t.tonnes} > 0`),
    check(
      'assignments_status_check',
      sql`${t.status} in ('SCHEDULED','IN_TRANSIT','ARRIVED','DELIVERED','CANCELLED')`,
    ),
    index('assignments_order_idx').on(t.orderId),
    index('assignments_truck_idx').on(t.truckId),
    index('assignments_driver_idx').on(t.driverId),
    index('assignments_delivered_idx').on(t.deliveredAt).where(sql`${t.status} = 'DELIVERED'`),
    /** Loads not yet delivered or cancelled: the dashboard counts them, the geofences find a truck's. */
    index('assignments_active_idx')
      .on(t.truckId, t.id)
      .where(sql`${t.status} in ('SCHEDULED','IN_TRANSIT','ARRIVED')`),
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
    status: text('status', { enum: ['SUBMITTED', 'CONFIRMED', 'REJECTED'] })
      .notNull()
      .default('SUBMITTED'),
    /** Who told us: the customer, ops, or M-Pesa itself (a C2B confirmation, an STK result). */
    source: text('source', { enum: ['CUSTOMER', 'OPS', 'MPESA_C2B', 'MPESA_STK'] })
      .notNull()
      .default('CUSTOMER'),
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_order_reference_key').on(t.orderId, sql`lower(${t.reference})`),
    uniqueIndex('payments_mpesa_receipt_key').on(t.mpesaReceipt).where(sql`${t.mpesaReceipt} is not null`),
    uniqueIndex('payments_checkout_request_key')
      .on(t.checkoutRequestId)
      .where(sql`${t.checkoutRequestId} is not null`),
    index('payments_status_idx').on(t.status),
    index('payments_unmatched_idx').on(t.createdAt).where(sql`${t.orderId} is null`),
    check('payments_source_check', sql`${t.source} in ('CUSTOMER','OPS','MPESA_C2B','MPESA_STK')`),
    check('payments_amount_check', sql`${t.amountCents} is null or ${t.amountCents} > 0`),
    check('payments_credit_check', sql`${t.creditCents} >= 0`),
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
    kind: text('kind', { enum: ['STK', 'C2B_VALIDATION', 'C2B_CONFIRMATION', 'STK_QUERY'] }).notNull(),
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
    check(
      'mpesa_callbacks_kind_check',
      sql`${t.kind} in ('STK','C2B_VALIDATION','C2B_CONFIRMATION','STK_QUERY')`,
    ),
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
    status: text('status', { enum: ['PENDING', 'PAID', 'FAILED'] })
      .notNull()
      .default('PENDING'),
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
    check('mpesa_stk_requests_status_check', sql`${t.status} in ('PENDING','PAID','FAILED')`),
    check('mpesa_stk_requests_amount_check', sql`${t.amountCents} > 0`),
  ],
);

// ── Operations (issue 4) ──────────────────────────────────────────────────────────────────────────────

/** Yard stock movements: receipts add tonnes, delivered loads take them out (signed tonnes). */
export const stockTransactions = pgTable(
  'stock_transactions',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: ['RECEIPT', 'DELIVERY', 'ADJUSTMENT'] }).notNull(),
    trucks: numeric('trucks', { precision: 10, scale: 2, mode: 'number' }).notNull(),
    tonnes: numeric('tonnes', { precision: 12, scale: 2, mode: 'number' }).notNull(),
    category: text('category', { enum: ['coarse', 'smooth'] }).notNull(),
    truckId: text('truck_id').references(() => trucks.id, { onDelete: 'set null' }),
    reason: text('reason'),
    costPerTonneCents: bigint('cost_per_tonne_cents', { mode: 'number' }),
    /** The delivered load that took this stock out; unique so a re-delivery cannot take it twice. */
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    check('stock_tx_kind_check', sql`${t.kind} in ('RECEIPT','DELIVERY','ADJUSTMENT')`),
    check('stock_tx_category_check', sql`${t.category} in ('coarse','smooth')`),
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
    type: text('type', {
      enum: ['FUEL', 'SALARY', 'REPAIR', 'MAINTENANCE', 'LOADING', 'OFFLOADING', 'STOCK_PURCHASE', 'OTHER'],
    }).notNull(),
    truckId: text('truck_id').references(() => trucks.id, { onDelete: 'set null' }),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
    incurredAt: timestamp('incurred_at', { withTimezone: true }).notNull().defaultNow(),
    duplicateOf: integer('duplicate_of'),
    /** Where the cost came from: typed in, a fuel log's linked cost, or a stock receipt's purchase. */
    source: text('source', { enum: ['MANUAL', 'FUEL', 'STOCK'] })
      .notNull()
      .default('MANUAL'),
    stockTxId: integer('stock_tx_id').references(() => stockTransactions.id, { onDelete: 'set null' }),
    /** The load this cost belongs to (loading, offloading): counted in that trip's profit (issue 17). */
    assignmentId: integer('assignment_id').references(() => assignments.id, { onDelete: 'set null' }),
    ...auditColumns,
    ...timestamps,
  },
  (t) => [
    check('costs_amount_check', sql`${t.amountCents} > 0`),
    check(
      'costs_type_check',
      sql`${t.type} in ('FUEL','SALARY','REPAIR','MAINTENANCE','LOADING','OFFLOADING','STOCK_PURCHASE','OTHER')`,
    ),
    index('costs_incurred_idx').on(t.incurredAt),
    index('costs_truck_incurred_idx').on(t.truckId, t.incurredAt),
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

/** Yard stock per category: the running sum of signed stock movements, kept by a trigger on them. */
export const yardStockBalance = pgTable('yard_stock_balance', {
  category: text('category', { enum: ['coarse', 'smooth'] }).primaryKey(),
  tonnes: numeric('tonnes', { precision: 16, scale: 2, mode: 'number' }).notNull().default(0),
});

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
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.fixTime] }),
    index('truck_positions_truck_fix_idx').on(t.truckId, t.fixTime),
  ],
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
    status: text('status', { enum: ['PENDING', 'SENT', 'RECORDED', 'FAILED'] })
      .notNull()
      .default('PENDING'),
    error: text('error'),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('alert_deliveries_event_recipient_key').on(t.eventKey, t.recipientId),
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
    generator: text('generator', { enum: ['llm', 'rules', 'manual'] })
      .notNull()
      .default('rules'),
    ...timestamps,
  },
  (t) => [uniqueIndex('articles_for_date_key').on(t.forDate), index('articles_created_idx').on(t.createdAt)],
);

export const aiInsights = pgTable('ai_insights', {
  id: serial('id').primaryKey(),
  insights: text('insights').notNull(),
  alerts: jsonb('alerts').$type<string[]>().notNull().default([]),
  generator: text('generator', { enum: ['llm', 'rules'] }).notNull(),
  generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
});

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
 * transaction as the change; a relay (worker/outbox-relay.ts) enqueues it and marks it sent. Nothing is
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
    kind: text('kind', { enum: ['YARD_EXIT', 'SITE_ENTRY', 'SITE_EXIT', 'YARD_ENTRY'] }).notNull(),
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
    check(
      'geofence_events_kind_check',
      sql`${t.kind} in ('YARD_EXIT','SITE_ENTRY','SITE_EXIT','YARD_ENTRY')`,
    ),
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
    source: text('source', { enum: ['geofence', 'manual', 'proof'] }).notNull(),
    byUserId: integer('by_user_id').references(() => users.id, { onDelete: 'set null' }),
    reason: text('reason'),
    geofenceEventId: bigint('geofence_event_id', { mode: 'number' }).references(() => geofenceEvents.id, {
      onDelete: 'set null',
    }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('load_events_assignment_idx').on(t.assignmentId, t.at),
    check('load_events_source_check', sql`${t.source} in ('geofence','manual','proof')`),
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
    method: text('method', { enum: ['code', 'receiver'] }).notNull(),
    receiverName: text('receiver_name'),
    flagged: boolean('flagged').notNull().default(false),
    lat: doublePrecision('lat'),
    lng: doublePrecision('lng'),
    recordedById: integer('recorded_by_id').references(() => users.id, { onDelete: 'set null' }),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('delivery_proofs_photo_key').on(t.photoPath),
    check('delivery_proofs_method_check', sql`${t.method} in ('code','receiver')`),
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
    check('gross_limits_axles_check', sql`${t.axles} in (2, 3, 4)`),
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
    kind: text('kind', {
      enum: [
        'ODOMETER_BACKWARDS',
        'OVER_TANK_CAPACITY',
        'CONSUMPTION_OUTLIER',
        'ODOMETER_GPS_MISMATCH',
        'TRUCK_MOVING',
      ],
    }).notNull(),
    detail: text('detail').notNull(),
    status: text('status', { enum: ['open', 'reviewed', 'dismissed'] })
      .notNull()
      .default('open'),
    reason: text('reason'),
    reviewedById: integer('reviewed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fuel_anomalies_log_kind_key').on(t.fuelLogId, t.kind),
    index('fuel_anomalies_status_idx').on(t.status, t.createdAt),
    check(
      'fuel_anomalies_kind_check',
      sql`${t.kind} in ('ODOMETER_BACKWARDS','OVER_TANK_CAPACITY','CONSUMPTION_OUTLIER','ODOMETER_GPS_MISMATCH','TRUCK_MOVING')`,
    ),
    check('fuel_anomalies_status_check', sql`${t.status} in ('open','reviewed','dismissed')`),
  ],
);
