CREATE TABLE "trip_facts" (
	"assignment_id" integer PRIMARY KEY NOT NULL,
	"order_id" integer NOT NULL,
	"truck_id" text NOT NULL,
	"driver_id" text,
	"site" text NOT NULL,
	"delivered_at" timestamp with time zone NOT NULL,
	"planned_at" timestamp with time zone NOT NULL,
	"revenue_cents" bigint NOT NULL,
	"distance_km" numeric(8, 2) NOT NULL,
	"yard_exit_at" timestamp with time zone,
	"site_entry_at" timestamp with time zone,
	"site_exit_at" timestamp with time zone,
	"yard_entry_at" timestamp with time zone,
	"prev_yard_entry_at" timestamp with time zone,
	"linked_cents" bigint DEFAULT 0 NOT NULL,
	"gps_km" double precision
);
--> statement-breakpoint
ALTER TABLE "trip_facts" ADD CONSTRAINT "trip_facts_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trip_facts_delivered_idx" ON "trip_facts" USING btree ("delivered_at");--> statement-breakpoint
CREATE INDEX "trip_facts_truck_exit_idx" ON "trip_facts" USING btree ("truck_id","yard_exit_at");--> statement-breakpoint
-- The rule, written once: each delivered load with what the trip views read. The triggers below copy a load's
-- row from here whenever a row it reads changes; trip_facts_rebuild() and the backfill read all of it.
CREATE VIEW trip_facts_source AS
SELECT a.id AS assignment_id, a.order_id, a.truck_id, a.driver_id, o.site, a.delivered_at,
       coalesce(a.scheduled_at, a.created_at) AS planned_at,
       load_revenue_cents(o.per_truck_cents, a.tonnes) AS revenue_cents, o.distance_km,
       ev.yard_exit AS yard_exit_at, ev.site_entry AS site_entry_at, ev.site_exit AS site_exit_at,
       ev.yard_entry AS yard_entry_at,
       (SELECT max(g.at) FROM geofence_events g
         WHERE g.truck_id = a.truck_id AND g.kind = 'YARD_ENTRY' AND g.at <= ev.yard_exit) AS prev_yard_entry_at,
       (SELECT coalesce(sum(c.amount_cents), 0) FROM costs c
         WHERE c.assignment_id = a.id AND c.voided_at IS NULL)::bigint AS linked_cents,
       (SELECT k.km FROM trip_km k WHERE k.assignment_id = a.id) AS gps_km
FROM assignments a
JOIN orders o ON o.id = a.order_id
CROSS JOIN LATERAL (
  SELECT min(g.at) FILTER (WHERE g.kind = 'YARD_EXIT') AS yard_exit,
         min(g.at) FILTER (WHERE g.kind = 'SITE_ENTRY') AS site_entry,
         max(g.at) FILTER (WHERE g.kind = 'SITE_EXIT') AS site_exit,
         min(g.at) FILTER (WHERE g.kind = 'YARD_ENTRY') AS yard_entry
  FROM geofence_events g WHERE g.assignment_id = a.id) ev
WHERE a.status = 'DELIVERED' AND a.delivered_at IS NOT NULL;
--> statement-breakpoint
-- One load's row made equal to its source: written while the load is delivered, removed once it is not.
CREATE OR REPLACE FUNCTION trip_facts_refresh(aid integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO trip_facts SELECT * FROM trip_facts_source s WHERE s.assignment_id = aid
  ON CONFLICT (assignment_id) DO UPDATE SET
    order_id = excluded.order_id, truck_id = excluded.truck_id, driver_id = excluded.driver_id,
    site = excluded.site, delivered_at = excluded.delivered_at, planned_at = excluded.planned_at,
    revenue_cents = excluded.revenue_cents, distance_km = excluded.distance_km,
    yard_exit_at = excluded.yard_exit_at, site_entry_at = excluded.site_entry_at,
    site_exit_at = excluded.site_exit_at, yard_entry_at = excluded.yard_entry_at,
    prev_yard_entry_at = excluded.prev_yard_entry_at, linked_cents = excluded.linked_cents,
    gps_km = excluded.gps_km;
  IF NOT FOUND THEN
    DELETE FROM trip_facts WHERE assignment_id = aid;
  END IF;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION trip_facts_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trip_facts;
  INSERT INTO trip_facts SELECT * FROM trip_facts_source;
END $$;
--> statement-breakpoint
-- A load delivered, edited while delivered (truck, driver, tonnes, times, order) or moved out of delivered.
-- A deleted load's row goes with it (the foreign key cascades).
CREATE OR REPLACE FUNCTION trip_facts_assignments_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'DELIVERED' OR (TG_OP = 'UPDATE' AND OLD.status = 'DELIVERED') THEN
    PERFORM trip_facts_refresh(NEW.id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trip_facts_assignments AFTER INSERT OR UPDATE ON assignments
FOR EACH ROW EXECUTE FUNCTION trip_facts_assignments_trg();
--> statement-breakpoint
-- An order's site, price or distance edited: its delivered loads.
CREATE OR REPLACE FUNCTION trip_facts_orders_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM trip_facts_refresh(a.id) FROM assignments a WHERE a.order_id = NEW.id AND a.status = 'DELIVERED';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trip_facts_orders AFTER UPDATE OF site, per_truck_cents, distance_km ON orders
FOR EACH ROW WHEN (OLD.site IS DISTINCT FROM NEW.site OR OLD.per_truck_cents IS DISTINCT FROM NEW.per_truck_cents
  OR OLD.distance_km IS DISTINCT FROM NEW.distance_km)
EXECUTE FUNCTION trip_facts_orders_trg();
--> statement-breakpoint
-- A geofence crossing: the load it belongs to, and for a yard arrival the loads of that truck it is (or was)
-- the previous yard arrival of: those that left the yard at or after it with an earlier one recorded.
CREATE OR REPLACE FUNCTION trip_facts_geofence_trg() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids integer[];
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF OLD.assignment_id IS NOT NULL THEN PERFORM trip_facts_refresh(OLD.assignment_id); END IF;
    IF OLD.kind = 'YARD_ENTRY' THEN
      SELECT array_agg(f.assignment_id) INTO ids FROM trip_facts f
       WHERE f.truck_id = OLD.truck_id AND f.prev_yard_entry_at = OLD.at;
      PERFORM trip_facts_refresh(x) FROM unnest(ids) x;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF NEW.assignment_id IS NOT NULL THEN PERFORM trip_facts_refresh(NEW.assignment_id); END IF;
    IF NEW.kind = 'YARD_ENTRY' THEN
      SELECT array_agg(f.assignment_id) INTO ids FROM trip_facts f
       WHERE f.truck_id = NEW.truck_id AND f.yard_exit_at >= NEW.at
         AND (f.prev_yard_entry_at IS NULL OR f.prev_yard_entry_at < NEW.at);
      PERFORM trip_facts_refresh(x) FROM unnest(ids) x;
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trip_facts_geofence AFTER INSERT OR UPDATE OR DELETE ON geofence_events
FOR EACH ROW EXECUTE FUNCTION trip_facts_geofence_trg();
--> statement-breakpoint
-- A cost linked to a load (or unlinked, re-linked, re-priced, voided, deleted).
CREATE OR REPLACE FUNCTION trip_facts_costs_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.assignment_id IS NOT NULL THEN
    PERFORM trip_facts_refresh(OLD.assignment_id);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.assignment_id IS NOT NULL
     AND (TG_OP = 'INSERT' OR NEW.assignment_id IS DISTINCT FROM OLD.assignment_id) THEN
    PERFORM trip_facts_refresh(NEW.assignment_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trip_facts_costs AFTER INSERT OR UPDATE OR DELETE ON costs
FOR EACH ROW EXECUTE FUNCTION trip_facts_costs_trg();
--> statement-breakpoint
-- The trip's GPS km as the telemetry worker measures (and re-measures) it: only that column.
CREATE OR REPLACE FUNCTION trip_facts_km_trg() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    UPDATE trip_facts SET gps_km = NULL WHERE assignment_id = OLD.assignment_id;
  ELSE
    UPDATE trip_facts SET gps_km = NEW.km WHERE assignment_id = NEW.assignment_id AND gps_km IS DISTINCT FROM NEW.km;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER trip_facts_km AFTER INSERT OR UPDATE OF km OR DELETE ON trip_km
FOR EACH ROW EXECUTE FUNCTION trip_facts_km_trg();
--> statement-breakpoint
SELECT trip_facts_rebuild();
