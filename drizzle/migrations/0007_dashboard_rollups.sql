CREATE TABLE "cost_type_daily" (
	"day" date NOT NULL,
	"type" text NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "cost_type_daily_day_type_pk" PRIMARY KEY("day","type")
);
--> statement-breakpoint
CREATE TABLE "driver_daily" (
	"day" date NOT NULL,
	"driver_id" text NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	"tonnes" numeric(14, 2) DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "driver_daily_day_driver_id_pk" PRIMARY KEY("day","driver_id")
);
--> statement-breakpoint
CREATE TABLE "yard_stock_balance" (
	"category" text PRIMARY KEY NOT NULL,
	"tonnes" numeric(16, 2) DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX "assignments_active_idx" ON "assignments" USING btree ("id") WHERE "assignments"."status" in ('SCHEDULED','IN_TRANSIT');--> statement-breakpoint
CREATE INDEX "assignments_driver_recent_idx" ON "assignments" USING btree ("driver_id",coalesce("scheduled_at", "created_at"),"id");--> statement-breakpoint
CREATE INDEX "orders_open_idx" ON "orders" USING btree ("id") WHERE "orders"."status" in ('AWAITING_PAYMENT','PAYMENT_REVIEW','RECEIVED','IN_TRANSIT');--> statement-breakpoint
-- Running balances and rollups for the dashboards, kept in the same transaction as the rows they sum
-- (like finance_daily): yard_stock_balance (signed stock per category), driver_daily (delivered loads,
-- tonnes and revenue per Nairobi day and driver) and cost_type_daily (non-voided costs per Nairobi day
-- and type). Each has a *_rebuild() that recomputes it from the raw rows (after bulk loads with triggers
-- off, and to prove equality in tests).
CREATE OR REPLACE FUNCTION yard_stock_apply(cat text, d_tonnes numeric) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF cat IS NULL OR d_tonnes = 0 THEN
    RETURN;
  END IF;
  INSERT INTO yard_stock_balance (category, tonnes) VALUES (cat, d_tonnes)
  ON CONFLICT (category) DO UPDATE SET tonnes = yard_stock_balance.tonnes + EXCLUDED.tonnes;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION yard_stock_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.category = NEW.category AND OLD.tonnes = NEW.tonnes THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM yard_stock_apply(OLD.category, -OLD.tonnes);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM yard_stock_apply(NEW.category, NEW.tonnes);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER yard_stock_running AFTER INSERT OR DELETE OR UPDATE OF tonnes, category ON stock_transactions
FOR EACH ROW EXECUTE FUNCTION yard_stock_trg();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION yard_stock_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM yard_stock_balance;
  INSERT INTO yard_stock_balance (category, tonnes)
  SELECT category, sum(tonnes) FROM stock_transactions GROUP BY category;
END $$;
--> statement-breakpoint
-- Same view, same columns: every reader keeps selecting from yard_stock; it now reads two rows.
CREATE OR REPLACE VIEW yard_stock AS
SELECT coalesce(sum(tonnes) FILTER (WHERE category = 'coarse'), 0)::numeric(14,2) AS coarse_tonnes,
       coalesce(sum(tonnes) FILTER (WHERE category = 'smooth'), 0)::numeric(14,2) AS smooth_tonnes,
       coalesce(sum(tonnes), 0)::numeric(14,2) AS tonnes
FROM yard_stock_balance;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION driver_daily_apply(d date, driver text, d_loads integer, d_tonnes numeric, d_revenue bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL OR driver IS NULL OR (d_loads = 0 AND d_tonnes = 0 AND d_revenue = 0) THEN
    RETURN;
  END IF;
  INSERT INTO driver_daily (day, driver_id, loads, tonnes, revenue_cents)
  VALUES (d, driver, d_loads, d_tonnes, d_revenue)
  ON CONFLICT (day, driver_id) DO UPDATE SET
    loads = driver_daily.loads + EXCLUDED.loads,
    tonnes = driver_daily.tonnes + EXCLUDED.tonnes,
    revenue_cents = driver_daily.revenue_cents + EXCLUDED.revenue_cents;
END $$;
--> statement-breakpoint
-- One trigger keeps finance_daily (per truck) and driver_daily (per driver) from the same delivered load,
-- with one lookup of the order's price. An update that moves nothing they sum returns at once.
CREATE OR REPLACE FUNCTION finance_assignments_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_truck bigint;
  cents bigint;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.status = NEW.status AND OLD.delivered_at IS NOT DISTINCT FROM NEW.delivered_at
     AND OLD.tonnes = NEW.tonnes AND OLD.order_id = NEW.order_id AND OLD.truck_id = NEW.truck_id
     AND OLD.driver_id IS NOT DISTINCT FROM NEW.driver_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'DELIVERED' AND OLD.delivered_at IS NOT NULL THEN
    SELECT per_truck_cents INTO per_truck FROM orders WHERE id = OLD.order_id;
    cents := load_revenue_cents(per_truck, OLD.tonnes);
    PERFORM finance_apply(finance_day(OLD.delivered_at), OLD.truck_id, -1, 0, -cents, 0);
    PERFORM driver_daily_apply(finance_day(OLD.delivered_at), OLD.driver_id, -1, -OLD.tonnes, -cents);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'DELIVERED' AND NEW.delivered_at IS NOT NULL THEN
    SELECT per_truck_cents INTO per_truck FROM orders WHERE id = NEW.order_id;
    cents := load_revenue_cents(per_truck, NEW.tonnes);
    PERFORM finance_apply(finance_day(NEW.delivered_at), NEW.truck_id, 1, 0, cents, 0);
    PERFORM driver_daily_apply(finance_day(NEW.delivered_at), NEW.driver_id, 1, NEW.tonnes, cents);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- A re-priced order moves the revenue of its delivered loads in both rollups.
CREATE OR REPLACE FUNCTION finance_order_price_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  l record;
  cents bigint;
BEGIN
  IF OLD.per_truck_cents IS NOT DISTINCT FROM NEW.per_truck_cents THEN
    RETURN NULL;
  END IF;
  FOR l IN SELECT truck_id, driver_id, tonnes, delivered_at FROM assignments
           WHERE order_id = NEW.id AND status = 'DELIVERED' AND delivered_at IS NOT NULL LOOP
    cents := load_revenue_cents(NEW.per_truck_cents, l.tonnes) - load_revenue_cents(OLD.per_truck_cents, l.tonnes);
    PERFORM finance_apply(finance_day(l.delivered_at), l.truck_id, 0, 0, cents, 0);
    PERFORM driver_daily_apply(finance_day(l.delivered_at), l.driver_id, 0, 0, cents);
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER finance_order_price AFTER UPDATE OF per_truck_cents ON orders
FOR EACH ROW EXECUTE FUNCTION finance_order_price_trg();
--> statement-breakpoint
-- The foreign key's cascade deletes an order's loads after the order row is gone, when their price can no
-- longer be read; deleting them first lets the assignments trigger take their revenue out of the rollups.
CREATE OR REPLACE FUNCTION finance_order_delete_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM assignments WHERE order_id = OLD.id;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER finance_order_delete BEFORE DELETE ON orders
FOR EACH ROW EXECUTE FUNCTION finance_order_delete_trg();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION driver_daily_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM driver_daily;
  INSERT INTO driver_daily (day, driver_id, loads, tonnes, revenue_cents)
  SELECT day, driver_id, count(*), sum(tonnes), sum(revenue_cents)
  FROM delivered_loads WHERE driver_id IS NOT NULL GROUP BY day, driver_id;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cost_type_daily_apply(d date, cost_type text, d_cost bigint) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL OR d_cost = 0 THEN
    RETURN;
  END IF;
  INSERT INTO cost_type_daily (day, type, cost_cents) VALUES (d, cost_type, d_cost)
  ON CONFLICT (day, type) DO UPDATE SET cost_cents = cost_type_daily.cost_cents + EXCLUDED.cost_cents;
END $$;
--> statement-breakpoint
-- One trigger keeps finance_daily (per truck) and cost_type_daily (per type) from the same cost row.
CREATE OR REPLACE FUNCTION finance_costs_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND (OLD.voided_at IS NULL) = (NEW.voided_at IS NULL) AND OLD.amount_cents = NEW.amount_cents
     AND OLD.incurred_at = NEW.incurred_at AND OLD.type = NEW.type
     AND OLD.truck_id IS NOT DISTINCT FROM NEW.truck_id THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.voided_at IS NULL THEN
    PERFORM finance_apply(finance_day(OLD.incurred_at), OLD.truck_id, 0, 0, 0, -OLD.amount_cents);
    PERFORM cost_type_daily_apply(finance_day(OLD.incurred_at), OLD.type, -OLD.amount_cents);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.voided_at IS NULL THEN
    PERFORM finance_apply(finance_day(NEW.incurred_at), NEW.truck_id, 0, 0, 0, NEW.amount_cents);
    PERFORM cost_type_daily_apply(finance_day(NEW.incurred_at), NEW.type, NEW.amount_cents);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cost_type_daily_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM cost_type_daily;
  INSERT INTO cost_type_daily (day, type, cost_cents)
  SELECT finance_day(incurred_at), type, sum(amount_cents) FROM costs
  WHERE voided_at IS NULL GROUP BY 1, 2;
END $$;
--> statement-breakpoint
SELECT finance_rebuild();
--> statement-breakpoint
SELECT yard_stock_rebuild();
--> statement-breakpoint
SELECT driver_daily_rebuild();
--> statement-breakpoint
SELECT cost_type_daily_rebuild();
