-- finance_daily keeps per (Africa/Nairobi day, truck) sums of delivered-load revenue, loads, non-voided
-- costs and orders, maintained by triggers so every write path keeps it right. finance_rebuild()
-- recomputes it from the raw rows (after bulk loads with triggers off, and to prove equality in tests).
CREATE OR REPLACE FUNCTION finance_day(ts timestamptz) RETURNS date
LANGUAGE sql IMMUTABLE AS $$ SELECT (ts AT TIME ZONE 'Africa/Nairobi')::date $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_apply(d date, truck text, d_loads integer, d_orders integer, d_revenue bigint, d_cost bigint)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF d IS NULL OR (d_loads = 0 AND d_orders = 0 AND d_revenue = 0 AND d_cost = 0) THEN
    RETURN;
  END IF;
  INSERT INTO finance_daily (day, truck_id, loads, orders, revenue_cents, cost_cents)
  VALUES (d, coalesce(truck, ''), d_loads, d_orders, d_revenue, d_cost)
  ON CONFLICT (day, truck_id) DO UPDATE SET
    loads = finance_daily.loads + EXCLUDED.loads,
    orders = finance_daily.orders + EXCLUDED.orders,
    revenue_cents = finance_daily.revenue_cents + EXCLUDED.revenue_cents,
    cost_cents = finance_daily.cost_cents + EXCLUDED.cost_cents;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_assignments_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  per_truck bigint;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'DELIVERED' AND OLD.delivered_at IS NOT NULL THEN
    SELECT per_truck_cents INTO per_truck FROM orders WHERE id = OLD.order_id;
    PERFORM finance_apply(finance_day(OLD.delivered_at), OLD.truck_id, -1, 0,
      -round(coalesce(per_truck, 0) * OLD.tonnes / 20)::bigint, 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'DELIVERED' AND NEW.delivered_at IS NOT NULL THEN
    SELECT per_truck_cents INTO per_truck FROM orders WHERE id = NEW.order_id;
    PERFORM finance_apply(finance_day(NEW.delivered_at), NEW.truck_id, 1, 0,
      round(coalesce(per_truck, 0) * NEW.tonnes / 20)::bigint, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER finance_assignments AFTER INSERT OR UPDATE OR DELETE ON assignments
FOR EACH ROW EXECUTE FUNCTION finance_assignments_trg();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_costs_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.voided_at IS NULL THEN
    PERFORM finance_apply(finance_day(OLD.incurred_at), OLD.truck_id, 0, 0, 0, -OLD.amount_cents);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.voided_at IS NULL THEN
    PERFORM finance_apply(finance_day(NEW.incurred_at), NEW.truck_id, 0, 0, 0, NEW.amount_cents);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER finance_costs AFTER INSERT OR UPDATE OR DELETE ON costs
FOR EACH ROW EXECUTE FUNCTION finance_costs_trg();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_orders_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status <> 'CANCELLED' THEN
    PERFORM finance_apply(finance_day(OLD.created_at), '', 0, -1, 0, 0);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status <> 'CANCELLED' THEN
    PERFORM finance_apply(finance_day(NEW.created_at), '', 0, 1, 0, 0);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER finance_orders AFTER INSERT OR DELETE OR UPDATE OF status, created_at ON orders
FOR EACH ROW EXECUTE FUNCTION finance_orders_trg();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION finance_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM finance_daily;
  INSERT INTO finance_daily (day, truck_id, loads, orders, revenue_cents, cost_cents)
  SELECT day, truck_id, sum(loads)::int, sum(orders)::int, sum(revenue)::bigint, sum(cost)::bigint
  FROM (
    SELECT finance_day(a.delivered_at) AS day, a.truck_id, count(*) AS loads, 0 AS orders,
           sum(round(o.per_truck_cents * a.tonnes / 20)) AS revenue, 0 AS cost
    FROM assignments a JOIN orders o ON o.id = a.order_id
    WHERE a.status = 'DELIVERED' AND a.delivered_at IS NOT NULL
    GROUP BY 1, 2
    UNION ALL
    SELECT finance_day(incurred_at), coalesce(truck_id, ''), 0, 0, 0, sum(amount_cents)
    FROM costs WHERE voided_at IS NULL GROUP BY 1, 2
    UNION ALL
    SELECT finance_day(created_at), '', 0, count(*), 0, 0
    FROM orders WHERE status <> 'CANCELLED' GROUP BY 1
  ) parts
  GROUP BY day, truck_id;
END $$;
--> statement-breakpoint
SELECT finance_rebuild();
