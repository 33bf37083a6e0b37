-- Issue 26, item 3: truck_positions partitioned by month on fix_time, a GPS odometer per fix (cum_km), the
-- per-truck-day rollup and the fuel logs' GPS km, so raw fixes can be dropped a month at a time.
CREATE TABLE "truck_days" (
	"truck_id" text NOT NULL,
	"day" date NOT NULL,
	"km" double precision DEFAULT 0 NOT NULL,
	"fixes" integer DEFAULT 0 NOT NULL,
	"moving_fixes" integer DEFAULT 0 NOT NULL,
	"first_fix_at" timestamp with time zone NOT NULL,
	"last_fix_at" timestamp with time zone NOT NULL,
	"max_speed_kmh" double precision,
	CONSTRAINT "truck_days_truck_id_day_pk" PRIMARY KEY("truck_id","day")
);
--> statement-breakpoint
ALTER TABLE "fuel_logs" ADD COLUMN "gps_km" double precision;--> statement-breakpoint
ALTER TABLE "truck_days" ADD CONSTRAINT "truck_days_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "truck_days_day_idx" ON "truck_days" USING btree ("day");--> statement-breakpoint
ALTER TABLE "truck_positions" RENAME TO "truck_positions_unpartitioned";--> statement-breakpoint
ALTER TABLE "truck_positions_unpartitioned" RENAME CONSTRAINT "truck_positions_device_id_fix_time_pk" TO "truck_positions_unpartitioned_pk";--> statement-breakpoint
ALTER TABLE "truck_positions_unpartitioned" RENAME CONSTRAINT "truck_positions_truck_id_trucks_id_fk" TO "truck_positions_unpartitioned_truck_fk";--> statement-breakpoint
ALTER INDEX "truck_positions_truck_fix_idx" RENAME TO "truck_positions_unpartitioned_truck_fix_idx";--> statement-breakpoint
CREATE TABLE "truck_positions" (
	"device_id" text NOT NULL,
	"fix_time" timestamp with time zone NOT NULL,
	"truck_id" text NOT NULL,
	"lat" double precision NOT NULL,
	"lng" double precision NOT NULL,
	"speed_kmh" double precision,
	"heading" double precision,
	"altitude" double precision,
	"accuracy" double precision,
	"battery" double precision,
	"attributes" jsonb,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cum_km" double precision,
	CONSTRAINT "truck_positions_device_id_fix_time_pk" PRIMARY KEY("device_id","fix_time")
) PARTITION BY RANGE ("fix_time");
--> statement-breakpoint
ALTER TABLE "truck_positions" ADD CONSTRAINT "truck_positions_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "truck_positions_truck_fix_idx" ON "truck_positions" USING btree ("truck_id","fix_time");--> statement-breakpoint
CREATE INDEX "truck_positions_fix_brin" ON "truck_positions" USING brin ("fix_time");--> statement-breakpoint
-- The month holding `at` (UTC months), created when missing; answers its name. Used by the migration, the
-- positions job (months ahead) and the ingest (a fix in a month not yet created).
CREATE OR REPLACE FUNCTION truck_positions_partition(at timestamptz) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamp := date_trunc('month', at AT TIME ZONE 'UTC');
  part text := 'truck_positions_p' || to_char(month_start, 'YYYY_MM');
BEGIN
  IF to_regclass(part) IS NULL THEN
    EXECUTE format(
      'CREATE TABLE IF NOT EXISTS %I PARTITION OF truck_positions FOR VALUES FROM (%L) TO (%L)',
      part,
      (month_start AT TIME ZONE 'UTC'),
      ((month_start + interval '1 month') AT TIME ZONE 'UTC'));
  END IF;
  RETURN part;
END $$;
--> statement-breakpoint
SELECT truck_positions_partition(m)
FROM generate_series(
  least(coalesce((SELECT min(fix_time) FROM truck_positions_unpartitioned), now()), now()),
  greatest(coalesce((SELECT max(fix_time) FROM truck_positions_unpartitioned), now()), now() + interval '2 months'),
  interval '1 month') AS m
UNION ALL SELECT truck_positions_partition(greatest(coalesce((SELECT max(fix_time) FROM truck_positions_unpartitioned), now()), now() + interval '2 months'));
--> statement-breakpoint
INSERT INTO truck_positions (device_id, fix_time, truck_id, lat, lng, speed_kmh, heading, altitude, accuracy, battery, attributes, received_at, cum_km)
SELECT device_id, fix_time, truck_id, lat, lng, speed_kmh, heading, altitude, accuracy, battery, attributes, received_at,
  coalesce(sum(seg) OVER (PARTITION BY truck_id ORDER BY fix_time, device_id ROWS UNBOUNDED PRECEDING), 0)
FROM (
  SELECT p.*, 2 * 6371 * asin(sqrt(
      power(sin(radians(lat - lag(lat) OVER w) / 2), 2)
      + cos(radians(lag(lat) OVER w)) * cos(radians(lat)) * power(sin(radians(lng - lag(lng) OVER w) / 2), 2))) AS seg
  FROM truck_positions_unpartitioned p
  WINDOW w AS (PARTITION BY truck_id ORDER BY fix_time, device_id)) x;
--> statement-breakpoint
DROP TABLE "truck_positions_unpartitioned";--> statement-breakpoint
INSERT INTO truck_days (truck_id, day, km, fixes, moving_fixes, first_fix_at, last_fix_at, max_speed_kmh)
SELECT truck_id, (fix_time AT TIME ZONE 'Africa/Nairobi')::date,
  coalesce(sum(cum_km - prev_cum), 0), count(*)::int, (count(*) FILTER (WHERE speed_kmh > 5))::int,
  min(fix_time), max(fix_time), max(speed_kmh)
FROM (SELECT truck_id, fix_time, speed_kmh, cum_km,
        lag(cum_km) OVER (PARTITION BY truck_id ORDER BY fix_time, device_id) AS prev_cum
      FROM truck_positions) p
GROUP BY 1, 2;
--> statement-breakpoint
UPDATE fuel_logs f SET gps_km = k.km
FROM (
  SELECT l.id, CASE WHEN a.fix_time < b.fix_time THEN b.cum_km - a.cum_km END AS km
  FROM (SELECT id, truck_id, captured_at,
          lag(captured_at) OVER (PARTITION BY truck_id ORDER BY captured_at, id) AS prev_at
        FROM fuel_logs WHERE voided_at IS NULL) l
  LEFT JOIN LATERAL (SELECT fix_time, cum_km FROM truck_positions p
    WHERE p.truck_id = l.truck_id AND p.fix_time >= l.prev_at ORDER BY fix_time, device_id LIMIT 1) a ON true
  LEFT JOIN LATERAL (SELECT fix_time, cum_km FROM truck_positions p
    WHERE p.truck_id = l.truck_id AND p.fix_time <= l.captured_at ORDER BY fix_time DESC, device_id DESC LIMIT 1) b ON true
  WHERE l.prev_at IS NOT NULL) k
WHERE f.id = k.id;
