CREATE TABLE "finance_day_total" (
	"day" date PRIMARY KEY NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finance_monthly" (
	"month" date NOT NULL,
	"truck_id" text DEFAULT '' NOT NULL,
	"loads" integer DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"revenue_cents" bigint DEFAULT 0 NOT NULL,
	"cost_cents" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "finance_monthly_month_truck_id_pk" PRIMARY KEY("month","truck_id")
);
--> statement-breakpoint
CREATE INDEX "assignments_driver_open_idx" ON "assignments" USING btree ("driver_id","truck_id") WHERE "assignments"."status" in ('SCHEDULED','IN_TRANSIT','ARRIVED');--> statement-breakpoint
-- At a million orders a 365-day range read ~15,000 finance_daily rows (a row per truck a day) and took
-- 11-12 ms (bench:finance). Two coarser sums of the same rows, kept by the same function in the same
-- transaction: finance_day_total (a row a day: the timeseries and summary) and finance_monthly (a row per
-- month and truck: the truck breakdown's whole months). The day's total is updated first, so writes of one
-- day queue on it rather than lock truck rows in opposite orders.
CREATE OR REPLACE FUNCTION finance_apply(d date, truck text, d_loads integer, d_orders integer, d_revenue bigint, d_cost bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL OR (d_loads = 0 AND d_orders = 0 AND d_revenue = 0 AND d_cost = 0) THEN
    RETURN;
  END IF;
  INSERT INTO finance_day_total (day, loads, orders, revenue_cents, cost_cents)
  VALUES (d, d_loads, d_orders, d_revenue, d_cost)
  ON CONFLICT (day) DO UPDATE SET
    loads = finance_day_total.loads + EXCLUDED.loads,
    orders = finance_day_total.orders + EXCLUDED.orders,
    revenue_cents = finance_day_total.revenue_cents + EXCLUDED.revenue_cents,
    cost_cents = finance_day_total.cost_cents + EXCLUDED.cost_cents;
  INSERT INTO finance_daily (day, truck_id, loads, orders, revenue_cents, cost_cents)
  VALUES (d, coalesce(truck, ''), d_loads, d_orders, d_revenue, d_cost)
  ON CONFLICT (day, truck_id) DO UPDATE SET
    loads = finance_daily.loads + EXCLUDED.loads,
    orders = finance_daily.orders + EXCLUDED.orders,
    revenue_cents = finance_daily.revenue_cents + EXCLUDED.revenue_cents,
    cost_cents = finance_daily.cost_cents + EXCLUDED.cost_cents;
  INSERT INTO finance_monthly (month, truck_id, loads, orders, revenue_cents, cost_cents)
  VALUES (date_trunc('month', d)::date, coalesce(truck, ''), d_loads, d_orders, d_revenue, d_cost)
  ON CONFLICT (month, truck_id) DO UPDATE SET
    loads = finance_monthly.loads + EXCLUDED.loads,
    orders = finance_monthly.orders + EXCLUDED.orders,
    revenue_cents = finance_monthly.revenue_cents + EXCLUDED.revenue_cents,
    cost_cents = finance_monthly.cost_cents + EXCLUDED.cost_cents;
END $$;
--> statement-breakpoint
-- finance_daily from the raw rows as before, then its two coarser sums from it.
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
  DELETE FROM finance_day_total;
  INSERT INTO finance_day_total (day, loads, orders, revenue_cents, cost_cents)
  SELECT day, sum(loads), sum(orders), sum(revenue_cents), sum(cost_cents) FROM finance_daily GROUP BY day;
  DELETE FROM finance_monthly;
  INSERT INTO finance_monthly (month, truck_id, loads, orders, revenue_cents, cost_cents)
  SELECT date_trunc('month', day)::date, truck_id, sum(loads), sum(orders), sum(revenue_cents), sum(cost_cents)
  FROM finance_daily GROUP BY 1, 2;
END $$;
--> statement-breakpoint
-- Filled from finance_daily as it stands (the raw rows are not read again).
INSERT INTO finance_day_total (day, loads, orders, revenue_cents, cost_cents)
SELECT day, sum(loads), sum(orders), sum(revenue_cents), sum(cost_cents) FROM finance_daily GROUP BY day;
--> statement-breakpoint
INSERT INTO finance_monthly (month, truck_id, loads, orders, revenue_cents, cost_cents)
SELECT date_trunc('month', day)::date, truck_id, sum(loads), sum(orders), sum(revenue_cents), sum(cost_cents)
FROM finance_daily GROUP BY 1, 2;
