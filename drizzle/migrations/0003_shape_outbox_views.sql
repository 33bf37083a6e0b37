CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"payload" jsonb NOT NULL,
	"dedupe_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"available_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "outbox_pending_idx" ON "outbox" USING btree ("available_at","id") WHERE "outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_sent_idx" ON "outbox" USING btree ("sent_at") WHERE "outbox"."sent_at" is not null;--> statement-breakpoint
-- The revenue rule, written once: per-truck price × tonnes / 20, rounded half-up (numeric round) to the cent.
CREATE OR REPLACE FUNCTION load_revenue_cents(per_truck_cents bigint, tonnes numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE AS $$ SELECT round(coalesce(per_truck_cents, 0) * tonnes / 20)::bigint $$;
--> statement-breakpoint
CREATE VIEW delivered_loads AS
SELECT a.id AS assignment_id, a.order_id, a.truck_id, a.driver_id, a.tonnes, a.delivered_at,
       finance_day(a.delivered_at) AS day, load_revenue_cents(o.per_truck_cents, a.tonnes) AS revenue_cents
FROM assignments a JOIN orders o ON o.id = a.order_id
WHERE a.status = 'DELIVERED' AND a.delivered_at IS NOT NULL;
--> statement-breakpoint
CREATE VIEW yard_stock AS
SELECT coalesce(sum(tonnes) FILTER (WHERE category = 'coarse'), 0)::numeric(14,2) AS coarse_tonnes,
       coalesce(sum(tonnes) FILTER (WHERE category = 'smooth'), 0)::numeric(14,2) AS smooth_tonnes,
       coalesce(sum(tonnes), 0)::numeric(14,2) AS tonnes
FROM stock_transactions;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_assignments_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_truck bigint;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'DELIVERED' AND OLD.delivered_at IS NOT NULL THEN
    SELECT per_truck_cents INTO per_truck FROM orders WHERE id = OLD.order_id;
    PERFORM finance_apply(finance_day(OLD.delivered_at), OLD.truck_id, -1, 0,
      -load_revenue_cents(per_truck, OLD.tonnes), 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'DELIVERED' AND NEW.delivered_at IS NOT NULL THEN
    SELECT per_truck_cents INTO per_truck FROM orders WHERE id = NEW.order_id;
    PERFORM finance_apply(finance_day(NEW.delivered_at), NEW.truck_id, 1, 0,
      load_revenue_cents(per_truck, NEW.tonnes), 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM finance_daily;
  INSERT INTO finance_daily (day, truck_id, loads, orders, revenue_cents, cost_cents)
  SELECT day, truck_id, sum(loads)::int, sum(orders)::int, sum(revenue)::bigint, sum(cost)::bigint
  FROM (
    SELECT day, truck_id, count(*) AS loads, 0 AS orders, sum(revenue_cents) AS revenue, 0 AS cost
    FROM delivered_loads GROUP BY 1, 2
    UNION ALL
    SELECT finance_day(incurred_at), coalesce(truck_id, ''), 0, 0, 0, sum(amount_cents)
    FROM costs WHERE voided_at IS NULL GROUP BY 1, 2
    UNION ALL
    SELECT finance_day(created_at), '', 0, count(*), 0, 0
    FROM orders WHERE status <> 'CANCELLED' GROUP BY 1
  ) parts
  GROUP BY day, truck_id;
END $$;
