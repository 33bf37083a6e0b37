import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    check('users_role_check', sql`${t.role} in ('ADMIN','OPS','DRIVER','FUEL','CUSTOMER')`),
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex('trucks_device_key').on(t.deviceId),
    check('trucks_capacity_check', sql`${t.capacityT} >= 1`),
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
    status: text('status', {
      enum: ['AWAITING_PAYMENT', 'PAYMENT_REVIEW', 'RECEIVED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'],
    })
      .notNull()
      .default('AWAITING_PAYMENT'),
    paymentStatus: text('payment_status', { enum: ['PENDING', 'SUBMITTED', 'CONFIRMED', 'REJECTED'] })
      .notNull()
      .default('PENDING'),
    ...timestamps,
  },
  (t) => [
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
    status: text('status', { enum: ['SCHEDULED', 'IN_TRANSIT', 'DELIVERED', 'CANCELLED'] })
      .notNull()
      .default('SCHEDULED'),
    inTransitAt: timestamp('in_transit_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdById: integer('created_by_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    check('assignments_tonnes_check', sql`${t.tonnes} > 0`),
    check('assignments_status_check', sql`${t.status} in ('SCHEDULED','IN_TRANSIT','DELIVERED','CANCELLED')`),
    index('assignments_order_idx').on(t.orderId),
    index('assignments_truck_idx').on(t.truckId),
    index('assignments_driver_idx').on(t.driverId),
    index('assignments_delivered_idx').on(t.deliveredAt).where(sql`${t.status} = 'DELIVERED'`),
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

/** A customer's payment confirmation (bank or M-Pesa reference) and ops' review of it. */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    method: text('method').notNull(),
    reference: text('reference').notNull(),
    message: text('message'),
    status: text('status', { enum: ['SUBMITTED', 'CONFIRMED', 'REJECTED'] })
      .notNull()
      .default('SUBMITTED'),
    submittedById: integer('submitted_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedById: integer('reviewed_by_id').references(() => users.id, { onDelete: 'set null' }),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }),
    reviewNote: text('review_note'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('payments_order_reference_key').on(t.orderId, sql`lower(${t.reference})`),
    index('payments_status_idx').on(t.status),
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
});

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
  (t) => [uniqueIndex('alert_deliveries_event_recipient_key').on(t.eventKey, t.recipientId)],
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
