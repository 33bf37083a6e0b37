import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
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
    ...timestamps,
  },
  (t) => [
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
    distanceSource: text('distance_source', { enum: ['manual', 'geocoded', 'heuristic', 'default'] }).notNull(),
    dateNeeded: date('date_needed', { mode: 'string' }),
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
    check('orders_payment_status_check', sql`${t.paymentStatus} in ('PENDING','SUBMITTED','CONFIRMED','REJECTED')`),
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
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
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
