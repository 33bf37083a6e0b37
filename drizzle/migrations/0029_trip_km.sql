CREATE TABLE "trip_km" (
	"assignment_id" integer PRIMARY KEY NOT NULL,
	"truck_id" text NOT NULL,
	"yard_exit_at" timestamp with time zone NOT NULL,
	"yard_entry_at" timestamp with time zone NOT NULL,
	"km" double precision,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trip_km" ADD CONSTRAINT "trip_km_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trip_km" ADD CONSTRAINT "trip_km_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trip_km_truck_entry_idx" ON "trip_km" USING btree ("truck_id","yard_entry_at");
--> statement-breakpoint
-- Trips already tracked: their km from the odometer over their window, as the worker keeps them from now on.
INSERT INTO "trip_km" ("assignment_id", "truck_id", "yard_exit_at", "yard_entry_at", "km")
SELECT w.assignment_id, w.truck_id, w.yard_exit, w.yard_entry,
  (SELECT CASE WHEN f.fix_time < l.fix_time THEN greatest(l.cum_km - f.cum_km, 0) END
   FROM (SELECT 1) one
   LEFT JOIN LATERAL (SELECT fix_time, cum_km FROM truck_positions p
     WHERE p.truck_id = w.truck_id AND p.fix_time >= w.yard_exit AND p.fix_time <= w.yard_entry
     ORDER BY p.fix_time, p.device_id LIMIT 1) f ON true
   LEFT JOIN LATERAL (SELECT fix_time, cum_km FROM truck_positions p
     WHERE p.truck_id = w.truck_id AND p.fix_time >= w.yard_exit AND p.fix_time <= w.yard_entry
     ORDER BY p.fix_time DESC, p.device_id DESC LIMIT 1) l ON true)
FROM (
  SELECT a.id AS assignment_id, a.truck_id,
    min(g.at) FILTER (WHERE g.kind = 'YARD_EXIT') AS yard_exit,
    min(g.at) FILTER (WHERE g.kind = 'YARD_ENTRY') AS yard_entry
  FROM assignments a JOIN geofence_events g ON g.assignment_id = a.id AND g.kind IN ('YARD_EXIT', 'YARD_ENTRY')
  WHERE a.truck_id IS NOT NULL
  GROUP BY a.id, a.truck_id
) w
WHERE w.yard_exit IS NOT NULL AND w.yard_entry IS NOT NULL;
