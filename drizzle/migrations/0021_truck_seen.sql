CREATE TABLE "truck_seen" (
	"truck_id" text PRIMARY KEY NOT NULL,
	"battery" double precision,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "truck_seen" ADD CONSTRAINT "truck_seen_truck_id_trucks_id_fk" FOREIGN KEY ("truck_id") REFERENCES "public"."trucks"("id") ON DELETE cascade ON UPDATE no action;